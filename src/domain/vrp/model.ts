/**
 * The problem compiled for the search: customers are nodes 0..n-1, then a start and an end node
 * per class of identical vehicles, over flat Float64Array matrices (`cost[a * N + b]`). An "end
 * anywhere" node costs nothing to reach, so a run then ends at its last stop.
 */
import { VRP_MSG, VrpInputError } from './messages'
import type { VrpMatrix, VrpProblem } from './types'

export interface Model {
  /** Customers (stops). */
  n: number
  /** Vehicles. */
  V: number
  /** Nodes: customers then two terminal nodes per vehicle class. */
  N: number
  cost: Float64Array
  /** The cost matrix itself when the problem has no separate times. */
  time: Float64Array
  demand: Float64Array
  service: Float64Array
  /** Service start bounds per node; a start node's both equal the shift start, an end node's latest is the shift's end. */
  early: Float64Array
  late: Float64Array
  capacity: Float64Array
  startNode: Int32Array
  endNode: Int32Array
  /** Identical vehicles share a class: an empty one of a class stands for all of them. */
  vehicleClass: Int32Array
  classCount: number
  /** The vehicle a stop is fixed to, or -1. */
  pin: Int32Array
  /** Whether any window or shift limit exists (otherwise the schedule never constrains). */
  timed: boolean
}

function checkMatrix(m: VrpMatrix | undefined, size: number): void {
  if (!m) return
  if (m.size !== size || m.values.length !== size * size) throw new VrpInputError(VRP_MSG.matrixInvalid)
  for (let i = 0; i < m.values.length; i++) if (!Number.isFinite(m.values[i]) || m.values[i] < 0) throw new VrpInputError(VRP_MSG.matrixInvalid)
}

const isIndex = (v: unknown, size: number): boolean => Number.isInteger(v) && (v as number) >= 0 && (v as number) < size

/** Checks the problem (throws VrpInputError with the Chinese message naming the stop or driver) and compiles it. */
export function compile(p: VrpProblem): Model {
  const L = p.cost?.size
  if (!p.stops?.length) throw new VrpInputError(VRP_MSG.noStops)
  if (!p.vehicles?.length) throw new VrpInputError(VRP_MSG.noVehicles)
  if (!Number.isInteger(L) || L <= 0) throw new VrpInputError(VRP_MSG.matrixInvalid)
  checkMatrix(p.cost, L)
  checkMatrix(p.time, L)
  checkMatrix(p.distance, L)
  const n = p.stops.length
  const V = p.vehicles.length
  p.stops.forEach((s, i) => {
    if (!isIndex(s.location, L)) throw new VrpInputError(VRP_MSG.stopLocationInvalid(i + 1))
    if (s.demand !== undefined && !(Number.isFinite(s.demand) && s.demand >= 0)) throw new VrpInputError(VRP_MSG.stopDemandInvalid(i + 1))
    if (s.service !== undefined && !(Number.isFinite(s.service) && s.service >= 0)) throw new VrpInputError(VRP_MSG.stopServiceInvalid(i + 1))
    if (s.window && !(Number.isFinite(s.window.start) && Number.isFinite(s.window.end) && s.window.end >= s.window.start)) throw new VrpInputError(VRP_MSG.windowInvalid(i + 1))
    if (s.vehicle !== undefined && !isIndex(s.vehicle, V)) throw new VrpInputError(VRP_MSG.stopVehicleInvalid(i + 1))
  })
  p.vehicles.forEach((v, i) => {
    if (!isIndex(v.start, L) || !(v.end === null || isIndex(v.end, L))) throw new VrpInputError(VRP_MSG.vehicleLocationInvalid(i + 1))
    if (!(Number.isFinite(v.capacity) && v.capacity > 0)) throw new VrpInputError(VRP_MSG.capacityInvalid(i + 1))
    if (v.maxDuration !== undefined && !(v.maxDuration > 0)) throw new VrpInputError(VRP_MSG.shiftInvalid(i + 1))
    if (v.shiftStart !== undefined && !Number.isFinite(v.shiftStart)) throw new VrpInputError(VRP_MSG.shiftInvalid(i + 1))
  })

  const vehicleClass = new Int32Array(V)
  const signatures = new Map<string, number>()
  p.vehicles.forEach((v, i) => {
    const key = `${v.start}|${v.end}|${v.capacity}|${v.shiftStart ?? 0}|${v.maxDuration ?? Infinity}`
    if (!signatures.has(key)) signatures.set(key, signatures.size)
    vehicleClass[i] = signatures.get(key)!
  })
  const classCount = signatures.size
  const N = n + 2 * classCount
  // Location of each node in the caller's matrices; -1 is "anywhere".
  const loc = new Int32Array(N)
  const early = new Float64Array(N)
  const late = new Float64Array(N).fill(Infinity)
  const demand = new Float64Array(N)
  const service = new Float64Array(N)
  let timed = false
  p.stops.forEach((s, i) => {
    loc[i] = s.location
    demand[i] = s.demand ?? 1
    service[i] = s.service ?? 0
    if (s.window) {
      early[i] = s.window.start
      late[i] = s.window.end
      timed = true
    } else early[i] = -Infinity
  })
  const startNode = new Int32Array(V)
  const endNode = new Int32Array(V)
  const capacity = new Float64Array(V)
  p.vehicles.forEach((v, i) => {
    const s = n + 2 * vehicleClass[i]
    startNode[i] = s
    endNode[i] = s + 1
    capacity[i] = v.capacity
    loc[s] = v.start
    loc[s + 1] = v.end ?? -1
    const t0 = v.shiftStart ?? 0
    early[s] = t0
    late[s] = t0
    early[s + 1] = -Infinity
    late[s + 1] = v.maxDuration === undefined ? Infinity : t0 + v.maxDuration
    if (v.maxDuration !== undefined) timed = true
  })
  const expand = (m: VrpMatrix): Float64Array => {
    const out = new Float64Array(N * N)
    const src = m.values
    const size = m.size
    for (let a = 0; a < N; a++) {
      const la = loc[a]
      if (la < 0) continue
      for (let b = 0; b < N; b++) {
        const lb = loc[b]
        out[a * N + b] = lb < 0 ? 0 : src[la * size + lb]
      }
    }
    return out
  }
  const cost = expand(p.cost)
  const time = p.time ? expand(p.time) : cost
  const pin = new Int32Array(n).fill(-1)
  p.stops.forEach((s, i) => {
    if (s.vehicle !== undefined) pin[i] = s.vehicle
  })
  return { n, V, N, cost, time, demand, service, early, late, capacity, startNode, endNode, vehicleClass, classCount, pin, timed }
}
