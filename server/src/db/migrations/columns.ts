/** Column helpers whose SQL differs between SQLite and PostgreSQL. */
import type { CreateTableBuilder } from 'kysely'
import type { DialectName } from '../connection'

/** Adds an auto-incrementing integer primary key named `id`. */
export function withId<T extends string>(table: CreateTableBuilder<T, never>, dialect: DialectName): CreateTableBuilder<T, 'id'> {
  return dialect === 'postgres' ? table.addColumn('id', 'serial', (c) => c.primaryKey()) : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
}
