/**
 * Repository queries that kysely builds and compiles once per dialect and shape, then runs with each
 * call's values. A marker create is a dozen small statements, and building and compiling each anew
 * cost more than SQLite running it (the saves bench). The builder is called with stand-ins for the
 * arguments: it must put every argument into the query as a value (a parameter), never branch on one
 * nor compute with one; values it writes itself stay as written. A value that shapes the query (a
 * list's length) has no place in one.
 * An object argument stands in property by property (an inserted row); its defined keys are its shape.
 */
import { CompiledQuery, PostgresAdapter, type QueryResult } from 'kysely'
import { immediateRunner, type Executor } from './connection'

/** Where a compiled query's parameter comes from: an argument, or a property of one. */
class StandIn {
  constructor(
    readonly arg: number,
    readonly key?: string,
  ) {}
}

interface Plan {
  sql: string
  /** Each parameter's stand-in, or the constant the builder wrote. */
  from: readonly unknown[]
}

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v) && !(v instanceof Date)

function definedKeys(value: Record<string, unknown>): string[] {
  return Object.keys(value).filter((k) => value[k] !== undefined)
}

/** The query `build` makes, as a function of an executor and the arguments that runs it as compiled before for their dialect and shape. */
/** A query builder's result or a `sql` template: both compile (a template with the executor it runs on). */
interface Compiles<R> {
  compile(db: Executor): CompiledQuery<R>
}

export function preparedQuery<A extends unknown[], R>(build: (db: Executor, ...args: A) => Compiles<R>): (db: Executor, ...args: A) => Promise<QueryResult<R>> {
  const plans = new Map<string, Plan>()
  return async (db, ...args) => {
    const dialect = db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite'
    let shape = dialect
    for (const arg of args) if (isRecord(arg)) shape += `|${definedKeys(arg).join(',')}`
    let plan = plans.get(shape)
    if (plan === undefined) plans.set(shape, (plan = planOf(db, build, args)))
    const parameters = plan.from.map((s) => (s instanceof StandIn ? (s.key === undefined ? args[s.arg] : (args[s.arg] as Record<string, unknown>)[s.key]) : s))
    const immediate = immediateRunner(db)
    return immediate ? immediate<R>(plan.sql, parameters) : db.executeQuery<R>(CompiledQuery.raw(plan.sql, parameters))
  }
}

/** The query `build` makes with stand-ins for `args`, compiled for `db`'s dialect. */
function planOf<A extends unknown[], R>(db: Executor, build: (db: Executor, ...args: A) => Compiles<R>, args: A): Plan {
  const standIns = args.map((arg, i) => (isRecord(arg) ? Object.fromEntries(definedKeys(arg).map((k) => [k, new StandIn(i, k)])) : new StandIn(i)))
  const compiled = build(db, ...(standIns as A)).compile(db)
  // A number made from a stand-in (arithmetic on an argument) is NaN: refused, as it would be the same on every call.
  if (compiled.parameters.some((p) => typeof p === 'number' && Number.isNaN(p))) throw new Error('a prepared query computes a value from an argument')
  return { sql: compiled.sql, from: compiled.parameters }
}
