/**
 * The routing solver's budgets (DESIGN 7): on copies of the CVRPLIB instances in ../shared/cvrp
 * whose customers are renumbered and whose coordinates are mirrored and shifted (fixed seed, so
 * the solver cannot know them), the gap to the best-known cost per instance (<= 3 %) and on
 * average (<= 1.5 %), each run within 2 s up to 100 customers and 5 s up to 200 (wall time from
 * reading the file to the answer); then a day's plan of 300 stops for 6 drivers with time windows
 * and asymmetric travel times, <= 10 s including building its travel-time matrix. Each instance
 * runs with several seeds and the medians are printed (the machine is shared).
 */
import fs from 'node:fs'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import { distanceMeters, type LngLat } from '../src/domain/geo'
import { AVERAGE_SPEED_MPS, DETOUR_FACTOR } from '../src/domain/routes'
import { cvrpCost, cvrpProblem, cvrpRounding, cvrpRoutes, formatVrp, parseSol, parseVrp, type CvrpInstance, type CvrpRounding } from '../src/domain/vrp/cvrplib'
import { seededRandom } from '../src/domain/vrp/random'
import { evaluatePlan, solveVrp } from '../src/domain/vrp/solver'
import type { VrpProblem } from '../src/domain/vrp/types'
import { emit } from './emit'

const CVRP_DIR = path.resolve(__dirname, '../../shared/cvrp')
const SEEDS = [1, 2, 3]
const COPY_SEED = 20240601

const median = (values: number[]): number => {
  const s = [...values].sort((a, b) => a - b)
  const mid = s.length >> 1
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2
}
const round = (n: number, digits = 2) => Number(n.toFixed(digits))

/** Goal's time per size: 2 s up to 100 customers, 5 s up to 200. */
export const cvrpBudgetMs = (customers: number): number => (customers <= 100 ? 2000 : customers <= 200 ? 5000 : 10_000)

/** A copy the solver cannot recognise (and `order`: copy node j is original node order[j]): customers in a shuffled order, the depot at a random place in the list, x mirrored, both axes shifted by whole units (distances are unchanged). */
export function disguise(instance: CvrpInstance, seed: number): { copy: CvrpInstance; order: number[] } {
  const rand = seededRandom(seed)
  const order = Array.from({ length: instance.dimension }, (_, i) => i)
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1))
    ;[order[i], order[j]] = [order[j], order[i]]
  }
  const dx = 1000 + Math.floor(rand() * 9000)
  const dy = 1000 + Math.floor(rand() * 9000)
  const copy: CvrpInstance = {
    name: `copy-${seed}`,
    comment: '',
    dimension: instance.dimension,
    capacity: instance.capacity,
    x: order.map((o) => dx - instance.x[o]),
    y: order.map((o) => instance.y[o] + dy),
    demand: order.map((o) => instance.demand[o]),
    depot: order.indexOf(instance.depot),
  }
  return { copy, order }
}

/** Solves one disguised copy from its .vrp text: the gap (%) to `bestKnown` and the wall time, after checking the answer serves every customer once within capacity. */
function solveCopy(vrpText: string, rounding: CvrpRounding, bestKnown: number, seed: number): { gap: number; ms: number } {
  const started = performance.now()
  const instance = parseVrp(vrpText)
  const customers = instance.dimension - 1
  const { problem, customerNodes } = cvrpProblem(instance, rounding)
  // The search gets what is left of the budget after reading and building the matrix, less a margin for writing the answer.
  const timeLimitMs = cvrpBudgetMs(customers) - (performance.now() - started) - 60
  const solution = solveVrp(problem, { timeLimitMs, seed })
  const routes = cvrpRoutes(solution, customerNodes)
  const ms = performance.now() - started
  const seen = new Set<number>()
  for (const r of routes) {
    let load = 0
    for (const node of r) {
      if (node === instance.depot || seen.has(node)) throw new Error(`node ${node} served twice or is the depot`)
      seen.add(node)
      load += instance.demand[node]
    }
    if (load > instance.capacity) throw new Error('a route is over capacity')
  }
  if (seen.size !== customers) throw new Error(`${customers - seen.size} customers not served`)
  const cost = cvrpCost(instance, routes, rounding)
  return { gap: (100 * (cost - bestKnown)) / bestKnown, ms }
}

export function cvrpBench(): void {
  const files = fs
    .readdirSync(CVRP_DIR)
    .filter((f) => f.endsWith('.vrp'))
    .sort()
  const gaps: number[] = []
  let worstTimeShare = 0
  for (const file of files) {
    const name = file.replace(/\.vrp$/, '')
    const original = parseVrp(fs.readFileSync(path.join(CVRP_DIR, file), 'utf8'))
    const rounding = cvrpRounding(original)
    const sol = parseSol(fs.readFileSync(path.join(CVRP_DIR, `${name}.sol`), 'utf8'))
    // The best-known cost measured as we measure ours (the file's own cost agrees at two decimals).
    const bestKnown = cvrpCost(original, sol.routes, rounding)
    if (Math.abs(bestKnown - sol.cost) > 0.005 + 1e-9) throw new Error(`${name}: the .sol routes cost ${bestKnown}, the file says ${sol.cost}`)
    const copy = formatVrp(disguise(original, COPY_SEED).copy)
    const runs = SEEDS.map((seed) => solveCopy(copy, rounding, bestKnown, seed))
    const gap = median(runs.map((r) => r.gap))
    const ms = median(runs.map((r) => r.ms))
    const budget = cvrpBudgetMs(original.dimension - 1)
    worstTimeShare = Math.max(worstTimeShare, ms / budget)
    gaps.push(gap)
    emit(`vrp.cvrp.${name}.gap_pct`, round(gap), '%', 3)
    emit(`vrp.cvrp.${name}.ms`, Math.round(ms), 'ms', budget)
  }
  emit('vrp.cvrp.average_gap_pct', round(gaps.reduce((s, g) => s + g, 0) / gaps.length), '%', 1.5)
}

/** A day's plan: 300 stops scattered over a city district, 6 drivers from one depot, windows on 40 % of stops, travel times that differ each way. */
export function dayPlan(seed: number): { points: LngLat[]; build: () => VrpProblem } {
  const rand = seededRandom(seed)
  const depot: LngLat = { lng: 121.4737, lat: 31.2304 }
  const points: LngLat[] = [depot]
  for (let i = 0; i < 300; i++) {
    const r = 12_000 * Math.sqrt(rand())
    const a = rand() * 2 * Math.PI
    points.push({ lng: depot.lng + (r * Math.cos(a)) / (111_320 * Math.cos((depot.lat * Math.PI) / 180)), lat: depot.lat + (r * Math.sin(a)) / 110_540 })
  }
  const windows = points.map(() => {
    if (rand() >= 0.4) return undefined
    const start = 9 * 3600 + Math.floor(rand() * 6) * 3600
    return { start, end: start + 2 * 3600 }
  })
  const oneWay = Array.from({ length: points.length * points.length }, () => 0.9 + 0.35 * rand())
  const build = (): VrpProblem => {
    const L = points.length
    const time = new Float64Array(L * L)
    for (let a = 0; a < L; a++) for (let b = 0; b < L; b++) if (a !== b) time[a * L + b] = ((distanceMeters(points[a], points[b]) * DETOUR_FACTOR) / AVERAGE_SPEED_MPS.driving) * oneWay[a * L + b]
    const matrix = { size: L, values: time }
    return {
      cost: matrix,
      stops: points.slice(1).map((_, i) => ({ location: i + 1, demand: 1, service: 300, window: windows[i + 1] })),
      vehicles: Array.from({ length: 6 }, () => ({ start: 0, end: 0, capacity: 60, shiftStart: 8 * 3600, maxDuration: 9 * 3600 })),
    }
  }
  return { points, build }
}

export function dayPlanBench(): void {
  const plan = dayPlan(7)
  const runs = SEEDS.map((seed) => {
    const started = performance.now()
    const problem = plan.build()
    const solution = solveVrp(problem, { timeLimitMs: 10_000 - (performance.now() - started) - 200, seed })
    const ms = performance.now() - started
    // The plan checked again from scratch: every run within its capacity, windows and shift.
    const check = evaluatePlan(
      problem,
      problem.vehicles.map((_, v) => solution.routes.find((r) => r.vehicle === v)?.stops ?? []),
    )
    if (check.violations.length || check.unplanned.length !== solution.unassigned.length) throw new Error(`the 300-stop plan breaks a rule: ${JSON.stringify(check.violations)}`)
    return { ms, unserved: solution.unassigned.length }
  })
  emit('vrp.plan300.ms', Math.round(median(runs.map((r) => r.ms))), 'ms', 10_000)
  emit('vrp.plan300.unserved', median(runs.map((r) => r.unserved)), 'stops', 0)
}

export function vrpBench(): void {
  cvrpBench()
  dayPlanBench()
}

if (require.main === module) vrpBench()
