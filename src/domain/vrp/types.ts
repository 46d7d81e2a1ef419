/**
 * The routing solver's contract: a problem over a matrix of locations (travel times may differ
 * each way), vehicles with a capacity and a shift, stops with demand, service time and an optional
 * time window; the answer is each vehicle's ordered stops with totals, and the stops that cannot
 * be served with the reason. All times are in the matrix's unit (the planner uses seconds, with
 * windows and shifts as seconds since midnight); costs in whatever the `cost` matrix measures.
 */

/** A square matrix over `size` locations, row-major: entry (from, to) at `from * size + to`. */
export interface VrpMatrix {
  size: number
  values: ArrayLike<number>
}

export interface VrpStop {
  /** Index of the stop's location in the matrices. */
  location: number
  /** What the stop takes of a vehicle's capacity (a number of stops: 1; or 件数, 重量 ...). */
  demand?: number
  /** Time spent at the stop. */
  service?: number
  /** Service may start no earlier than `start` and no later than `end` (a vehicle that arrives early waits). */
  window?: { start: number; end: number }
  /** Re-planning with a stop fixed: only this vehicle (its index in `vehicles`) may serve it. */
  vehicle?: number
}

/**
 * A driver's vehicle. Re-planning mid-day from the stops left: the start is the driver's position
 * now (a location of its own in the matrices), `shiftStart` now, and `maxDuration` what is left of
 * the shift.
 */
export interface VrpVehicle {
  /** Location the vehicle leaves from at `shiftStart`. */
  start: number
  /** Location it must return to; `null` ends the run at its last stop (end anywhere). */
  end: number | null
  capacity: number
  /** When the vehicle leaves its start (default 0). */
  shiftStart?: number
  /** Longest working time from `shiftStart` to the end of the run (default unlimited). */
  maxDuration?: number
}

export interface VrpProblem {
  /** What the plan minimises (driving time for the planner; distance for CVRPLIB). */
  cost: VrpMatrix
  /** Travel times for the schedule, windows and shifts; the `cost` matrix when absent. */
  time?: VrpMatrix
  /** Distances, only reported in the totals. */
  distance?: VrpMatrix
  stops: VrpStop[]
  vehicles: VrpVehicle[]
}

export interface VrpOptions {
  /** Wall-clock budget of the search in milliseconds (default 2000). */
  timeLimitMs?: number
  /** Stop after this many ruin-and-recreate iterations (with no time limit the result is the same for a seed on any machine). */
  maxIterations?: number
  /** Seed of the search's random numbers (default 1). */
  seed?: number
  /** A plan to start from (stop indices per vehicle, e.g. yesterday's or the planner's edits): kept where it is feasible. */
  initial?: number[][]
  /** Clock in milliseconds, injectable for tests. */
  now?: () => number
}

/** Why a stop cannot be served: 超出载重, 超出工作时长, 时间窗冲突. */
export type VrpReason = 'capacity' | 'shift' | 'window'

export interface VrpRouteResult {
  /** Index in `vehicles`. */
  vehicle: number
  /** Stop indices in visiting order. */
  stops: number[]
  /** Arrival and service start at each stop (same order as `stops`). */
  arrivals: number[]
  serviceStarts: number[]
  load: number
  cost: number
  /** Travel time of the run's legs. */
  travelTime: number
  /** Waiting for windows to open. */
  waitTime: number
  serviceTime: number
  /** From shift start to the end of the run (the return to the end location, or the last stop's service end). */
  duration: number
  /** When the run ends. */
  endTime: number
  distance?: number
}

export interface VrpUnassigned {
  stop: number
  reason: VrpReason
}

export interface VrpSolution {
  /** Only the vehicles that have stops, in vehicle order. */
  routes: VrpRouteResult[]
  unassigned: VrpUnassigned[]
  cost: number
  travelTime: number
  distance?: number
  iterations: number
  elapsedMs: number
}
