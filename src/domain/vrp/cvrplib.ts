/**
 * CVRPLIB (TSPLIB-style) instances and solutions: reads a `.vrp` with EUC_2D coordinates, demands
 * and one depot, and a `.sol` (`Route #1: 21 31 19 …`, `Cost 784`, customers numbered from 1,
 * i.e. node id minus one); writes both back, and turns an instance into a solver problem.
 */
import type { VrpProblem, VrpSolution } from './types'

export interface CvrpInstance {
  name: string
  comment: string
  /** Nodes, depot included. */
  dimension: number
  capacity: number
  /** Coordinates by node, node 0 first (file ids are 1-based). */
  x: number[]
  y: number[]
  demand: number[]
  /** The depot's node index (0-based). */
  depot: number
}

export interface CvrpSolution {
  /** Customers as the file numbers them: node id minus one (the depot, node id 1, is not listed). */
  routes: number[][]
  cost: number
}

/** How CVRPLIB measures an arc: TSPLIB's EUC_2D rounds to the nearest integer (A, B, P sets); the CMT set is used unrounded. */
export type CvrpRounding = 'round' | 'exact'

export class CvrpFormatError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'CvrpFormatError'
  }
}

export function parseVrp(text: string): CvrpInstance {
  const lines = text.split(/\r?\n/)
  const head: Record<string, string> = {}
  let section = ''
  const coords = new Map<number, [number, number]>()
  const demands = new Map<number, number>()
  const depots: number[] = []
  for (const raw of lines) {
    const line = raw.trim()
    if (!line) continue
    if (line === 'EOF') break
    const kv = /^([A-Z_]+)\s*:\s*(.*)$/.exec(line)
    if (kv) {
      head[kv[1]] = kv[2].trim()
      section = ''
      continue
    }
    if (/^[A-Z_]+$/.test(line)) {
      section = line
      continue
    }
    const nums = line.split(/\s+/).map(Number)
    if (nums.some((v) => !Number.isFinite(v))) throw new CvrpFormatError(`unreadable line: ${line}`)
    if (section === 'NODE_COORD_SECTION') {
      if (nums.length < 3) throw new CvrpFormatError(`coordinate line needs id x y: ${line}`)
      coords.set(nums[0], [nums[1], nums[2]])
    } else if (section === 'DEMAND_SECTION') {
      if (nums.length < 2) throw new CvrpFormatError(`demand line needs id demand: ${line}`)
      demands.set(nums[0], nums[1])
    } else if (section === 'DEPOT_SECTION') {
      for (const v of nums) if (v !== -1) depots.push(v)
    } else throw new CvrpFormatError(`data outside a known section: ${line}`)
  }
  const type = head.EDGE_WEIGHT_TYPE
  if (type !== 'EUC_2D') throw new CvrpFormatError(`only EUC_2D instances are read, not ${type ?? 'a missing EDGE_WEIGHT_TYPE'}`)
  const dimension = Number(head.DIMENSION)
  const capacity = Number(head.CAPACITY)
  if (!Number.isInteger(dimension) || dimension < 2) throw new CvrpFormatError('DIMENSION is missing or wrong')
  if (!(capacity > 0)) throw new CvrpFormatError('CAPACITY is missing or wrong')
  if (depots.length !== 1) throw new CvrpFormatError('exactly one depot is read')
  const x: number[] = []
  const y: number[] = []
  const demand: number[] = []
  for (let id = 1; id <= dimension; id++) {
    const c = coords.get(id)
    const d = demands.get(id)
    if (!c) throw new CvrpFormatError(`node ${id} has no coordinates`)
    if (d === undefined) throw new CvrpFormatError(`node ${id} has no demand`)
    x.push(c[0])
    y.push(c[1])
    demand.push(d)
  }
  if (coords.size !== dimension || demands.size !== dimension) throw new CvrpFormatError('node ids do not match DIMENSION')
  const depot = depots[0] - 1
  if (depot < 0 || depot >= dimension) throw new CvrpFormatError('the depot is not a node')
  return { name: head.NAME ?? '', comment: head.COMMENT ?? '', dimension, capacity, x, y, demand, depot }
}

export function parseSol(text: string): CvrpSolution {
  const routes: number[][] = []
  let cost: number | null = null
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim()
    const route = /^Route\s*#\s*\d+\s*:(.*)$/i.exec(line)
    if (route) {
      const ids = route[1].trim() ? route[1].trim().split(/\s+/).map(Number) : []
      if (ids.some((v) => !Number.isInteger(v) || v < 1)) throw new CvrpFormatError(`unreadable route: ${line}`)
      routes.push(ids)
      continue
    }
    const c = /^cost\s+(\S+)$/i.exec(line)
    if (c) {
      cost = Number(c[1])
      if (!Number.isFinite(cost)) throw new CvrpFormatError(`unreadable cost: ${line}`)
    }
  }
  if (cost === null) throw new CvrpFormatError('the solution has no Cost line')
  return { routes, cost }
}

/** The rounding CVRPLIB uses for an instance: unrounded for Christofides–Mingozzi–Toth (CMT), TSPLIB's nearest integer otherwise. */
export function cvrpRounding(instance: CvrpInstance): CvrpRounding {
  return /^CMT/i.test(instance.name) ? 'exact' : 'round'
}

/** The node-to-node distance matrix of an instance, rounded to the nearest integer per arc or not. */
export function cvrpDistances(instance: CvrpInstance, rounding: CvrpRounding): Float64Array {
  const n = instance.dimension
  const out = new Float64Array(n * n)
  for (let a = 0; a < n; a++)
    for (let b = 0; b < n; b++) {
      const d = Math.hypot(instance.x[a] - instance.x[b], instance.y[a] - instance.y[b])
      out[a * n + b] = rounding === 'round' ? Math.round(d) : d
    }
  return out
}

/**
 * The instance as a solver problem: a stop per customer (stop i is the i-th customer in node order,
 * so CVRPLIB's number is i + 1 when the depot is node 0), as many vehicles as customers (CVRPLIB's
 * fleet is unlimited), all at the depot.
 */
export function cvrpProblem(instance: CvrpInstance, rounding: CvrpRounding): { problem: VrpProblem; customerNodes: number[] } {
  const n = instance.dimension
  const matrix = { size: n, values: cvrpDistances(instance, rounding) }
  const customerNodes: number[] = []
  for (let i = 0; i < n; i++) if (i !== instance.depot) customerNodes.push(i)
  const stops = customerNodes.map((node) => ({ location: node, demand: instance.demand[node] }))
  const vehicles = customerNodes.map(() => ({ start: instance.depot, end: instance.depot, capacity: instance.capacity }))
  return { problem: { cost: matrix, stops, vehicles }, customerNodes }
}

/** A solution's routes in CVRPLIB's numbering (node index; the depot, node 0, is not written). */
export function cvrpRoutes(solution: VrpSolution, customerNodes: number[]): number[][] {
  return solution.routes.map((r) => r.stops.map((s) => customerNodes[s]))
}

/** The cost of routes in CVRPLIB numbering, measured again from the coordinates. */
export function cvrpCost(instance: CvrpInstance, routes: number[][], rounding: CvrpRounding): number {
  const d = cvrpDistances(instance, rounding)
  const n = instance.dimension
  let total = 0
  for (const route of routes) {
    let prev = instance.depot
    for (const node of route) {
      total += d[prev * n + node]
      prev = node
    }
    total += d[prev * n + instance.depot]
  }
  return total
}

/** Writes routes and cost in the `.sol` format: `Route #1: 21 31 19 …` then `Cost 784` (two decimals when unrounded). */
export function formatSol(routes: number[][], cost: number, rounding: CvrpRounding): string {
  const lines = routes.filter((r) => r.length).map((r, i) => `Route #${i + 1}: ${r.join(' ')}`)
  lines.push(`Cost ${rounding === 'round' ? Math.round(cost) : cost.toFixed(2)}`)
  return lines.join('\n') + '\n'
}

/** Writes an instance back as a `.vrp` (used for the renumbered, mirrored copies the bench solves). */
export function formatVrp(instance: CvrpInstance): string {
  const out = [
    `NAME : ${instance.name}`,
    `COMMENT : ${instance.comment}`,
    'TYPE : CVRP',
    `DIMENSION : ${instance.dimension}`,
    'EDGE_WEIGHT_TYPE : EUC_2D',
    `CAPACITY : ${instance.capacity}`,
    'NODE_COORD_SECTION',
  ]
  for (let i = 0; i < instance.dimension; i++) out.push(`${i + 1} ${instance.x[i]} ${instance.y[i]}`)
  out.push('DEMAND_SECTION')
  for (let i = 0; i < instance.dimension; i++) out.push(`${i + 1} ${instance.demand[i]}`)
  out.push('DEPOT_SECTION', `${instance.depot + 1}`, '-1', 'EOF')
  return out.join('\n') + '\n'
}
