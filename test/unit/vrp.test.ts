import { compile } from '../../src/domain/vrp/model'
import { VRP_MSG, VRP_REASON_TEXT, VrpInputError } from '../../src/domain/vrp/messages'
import { seededRandom } from '../../src/domain/vrp/random'
import { Search, type Route, type Solution } from '../../src/domain/vrp/search'
import { evaluatePlan, solveVrp } from '../../src/domain/vrp/solver'
import type { VrpProblem, VrpStop, VrpVehicle } from '../../src/domain/vrp/types'

type Pt = [number, number]

const euclid = (pts: Pt[]) => {
  const L = pts.length
  const values = new Float64Array(L * L)
  for (let a = 0; a < L; a++) for (let b = 0; b < L; b++) values[a * L + b] = Math.hypot(pts[a][0] - pts[b][0], pts[a][1] - pts[b][1])
  return { size: L, values }
}

const fromRows = (rows: number[][]) => ({ size: rows.length, values: rows.flat() })

/** The optimum by brute force (every order of every subset, then every split into at most V runs): identical vehicles, every stop served; Infinity when impossible. */
function bruteForce(p: VrpProblem): number {
  const n = p.stops.length
  const veh = p.vehicles[0]
  const V = p.vehicles.length
  const L = p.cost.size
  const c = (a: number, b: number | null) => (b === null ? 0 : p.cost.values[a * L + b])
  const t = (a: number, b: number | null) => (b === null ? 0 : (p.time ?? p.cost).values[a * L + b])
  const runCost = (order: number[]): number => {
    let prev = veh.start
    let time = veh.shiftStart ?? 0
    let prevService = 0
    let cost = 0
    for (const s of order) {
      const stop = p.stops[s]
      cost += c(prev, stop.location)
      time += prevService + t(prev, stop.location)
      if (stop.window) {
        time = Math.max(time, stop.window.start)
        if (time > stop.window.end + 1e-9) return Infinity
      }
      prevService = stop.service ?? 0
      prev = stop.location
    }
    cost += c(prev, veh.end)
    time += prevService + t(prev, veh.end)
    if (veh.maxDuration !== undefined && time > (veh.shiftStart ?? 0) + veh.maxDuration + 1e-9) return Infinity
    return cost
  }
  const best = new Float64Array(1 << n).fill(Infinity)
  best[0] = 0
  const permute = (items: number[], k: number, mask: number) => {
    if (k === items.length) {
      best[mask] = Math.min(best[mask], runCost(items))
      return
    }
    for (let i = k; i < items.length; i++) {
      ;[items[k], items[i]] = [items[i], items[k]]
      permute(items, k + 1, mask)
      ;[items[k], items[i]] = [items[i], items[k]]
    }
  }
  for (let mask = 1; mask < 1 << n; mask++) {
    const items: number[] = []
    let load = 0
    for (let i = 0; i < n; i++)
      if (mask & (1 << i)) {
        items.push(i)
        load += p.stops[i].demand ?? 1
      }
    if (load <= veh.capacity) permute(items, 0, mask)
  }
  let f = Float64Array.from(best, (_, m) => (m === 0 ? 0 : Infinity))
  for (let k = 0; k < V; k++) {
    const g = f.slice()
    for (let mask = 1; mask < 1 << n; mask++) {
      const low = mask & -mask
      for (let sub = mask; sub; sub = (sub - 1) & mask) if (sub & low) g[mask] = Math.min(g[mask], best[sub] + f[mask ^ sub])
    }
    f = g
  }
  return f[(1 << n) - 1]
}

type Shape = { asymmetric?: boolean; timed?: boolean; endAnywhere?: boolean; separateTimes?: boolean }

/** A random small problem: 8 stops around a depot, 3 vehicles, with asymmetric costs, windows and shifts as asked. */
function randomProblem(seed: number, opts: Shape): VrpProblem {
  const rand = seededRandom(seed)
  const pts: Pt[] = Array.from({ length: 9 }, () => [Math.round(rand() * 100), Math.round(rand() * 100)])
  const m = euclid(pts)
  const cost = opts.asymmetric ? { size: m.size, values: Array.from(m.values, (v) => Math.round(v * (0.6 + rand()))) } : m
  const stops: VrpStop[] = pts.slice(1).map((_, i) => {
    const s: VrpStop = { location: i + 1, demand: 1 + Math.floor(rand() * 4), service: opts.timed ? 10 : 0 }
    if (opts.timed && rand() < 0.5) {
      const start = Math.floor(rand() * 200)
      s.window = { start, end: start + 60 + Math.floor(rand() * 80) }
    }
    return s
  })
  const vehicle: VrpVehicle = { start: 0, end: opts.endAnywhere ? null : 0, capacity: 10, ...(opts.timed ? { shiftStart: 0, maxDuration: 400 } : {}) }
  // Travel times that do not follow the costs: the schedule must read its own matrix.
  const time = opts.separateTimes ? { size: cost.size, values: Array.from(cost.values, (v, i) => Math.round(v * (1 + ((i * 7919) % 13) / 6))) } : undefined
  return { cost, time, stops, vehicles: [vehicle, { ...vehicle }, { ...vehicle }] }
}

describe('the routing solver finds the optimum of small problems (brute force over 8 stops)', () => {
  const cases: [string, Shape][] = [
    ['capacity only, symmetric', {}],
    ['asymmetric costs', { asymmetric: true }],
    ['time windows, service times and a shift limit', { timed: true }],
    ['asymmetric costs with windows', { asymmetric: true, timed: true }],
    ['runs that end at their last stop', { endAnywhere: true }],
    ['windows on travel times apart from the costs', { timed: true, separateTimes: true }],
  ]
  it.each(cases)('%s', (_, opts) => {
    let checked = 0
    let timesMatter = 0
    for (let seed = 1; checked < 4 && seed < 60; seed++) {
      const p = randomProblem(seed, opts)
      const optimum = bruteForce(p)
      if (!Number.isFinite(optimum)) continue
      checked++
      // The times change the optimum in at least one case, or the case would prove nothing about them.
      if (p.time && bruteForce({ ...p, time: undefined }) !== optimum) timesMatter++
      const sol = solveVrp(p, { maxIterations: 1500, seed })
      expect(sol.unassigned).toEqual([])
      expect(sol.cost).toBeCloseTo(optimum, 6)
      // Each stop once, each run within its capacity.
      expect(sol.routes.flatMap((r) => r.stops).sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7])
      for (const r of sol.routes) expect(r.load).toBeLessThanOrEqual(10)
    }
    expect(checked).toBe(4)
    if (opts.separateTimes) expect(timesMatter).toBeGreaterThan(0)
  })
})

describe('the routing solver keeps the rules', () => {
  it('follows the cheap direction of an asymmetric matrix', () => {
    // One way round the square costs 1 per leg, the other way 10.
    const rows = [0, 1, 2, 3].map((a) => [0, 1, 2, 3].map((b) => (a === b ? 0 : b === (a + 1) % 4 ? 1 : 10)))
    const p: VrpProblem = {
      cost: fromRows(rows),
      stops: [1, 2, 3].map((location) => ({ location })),
      vehicles: [
        { start: 0, end: 0, capacity: 10 },
        { start: 0, end: 0, capacity: 10 },
      ],
    }
    const sol = solveVrp(p, { maxIterations: 200 })
    expect(sol.routes.map((r) => r.stops)).toEqual([[0, 1, 2]])
    expect(sol.cost).toBe(4)
  })

  it('ends a run at its last stop when the vehicle has no end', () => {
    const p: VrpProblem = {
      cost: euclid([
        [0, 0],
        [3, 0],
        [1, 0],
        [2, 0],
      ]),
      stops: [1, 2, 3].map((location) => ({ location })),
      vehicles: [{ start: 0, end: null, capacity: 5 }],
    }
    const sol = solveVrp(p, { maxIterations: 100 })
    expect(sol.routes[0].stops).toEqual([1, 2, 0])
    expect(sol.cost).toBe(3)
  })

  it('waits for a window to open and reports arrival, service start, waiting and the end of the run', () => {
    const p: VrpProblem = {
      cost: fromRows([
        [0, 10],
        [10, 0],
      ]),
      stops: [{ location: 1, service: 5, window: { start: 30, end: 40 } }],
      vehicles: [{ start: 0, end: 0, capacity: 1, shiftStart: 0, maxDuration: 60 }],
    }
    const [r] = solveVrp(p, { maxIterations: 10 }).routes
    expect(r).toMatchObject({ stops: [0], arrivals: [10], serviceStarts: [30], waitTime: 20, serviceTime: 5, travelTime: 20, endTime: 45, duration: 45, load: 1 })
  })

  it('leaves out a stop whose demand exceeds every capacity: 超出载重', () => {
    const p: VrpProblem = {
      cost: euclid([
        [0, 0],
        [1, 0],
        [2, 0],
      ]),
      stops: [{ location: 1, demand: 20 }, { location: 2 }],
      vehicles: [
        { start: 0, end: 0, capacity: 10 },
        { start: 0, end: 0, capacity: 15 },
      ],
    }
    const sol = solveVrp(p, { maxIterations: 50 })
    expect(sol.unassigned).toEqual([{ stop: 0, reason: 'capacity' }])
    expect(sol.routes.flatMap((r) => r.stops)).toEqual([1])
    expect(VRP_REASON_TEXT[sol.unassigned[0].reason]).toBe('超出载重')
  })

  it('leaves out what a full fleet cannot carry: 超出载重', () => {
    const p: VrpProblem = {
      cost: euclid([
        [0, 0],
        [1, 0],
        [2, 0],
        [3, 0],
      ]),
      stops: [1, 2, 3].map((location) => ({ location })),
      vehicles: [{ start: 0, end: 0, capacity: 2 }],
    }
    const sol = solveVrp(p, { maxIterations: 100 })
    expect(sol.routes[0].stops).toHaveLength(2)
    expect(sol.unassigned).toHaveLength(1)
    expect(sol.unassigned[0].reason).toBe('capacity')
  })

  it('leaves out a stop whose window closes before any vehicle can reach it: 时间窗冲突', () => {
    const p: VrpProblem = {
      cost: euclid([
        [0, 0],
        [10, 0],
        [1, 0],
      ]),
      stops: [{ location: 1, window: { start: 0, end: 5 } }, { location: 2 }],
      vehicles: [{ start: 0, end: 0, capacity: 5, shiftStart: 0, maxDuration: 100 }],
    }
    const sol = solveVrp(p, { maxIterations: 50 })
    expect(sol.unassigned).toEqual([{ stop: 0, reason: 'window' }])
    expect(VRP_REASON_TEXT.window).toBe('时间窗冲突')
  })

  it('leaves out a stop that cannot be reached and left within the shift: 超出工作时长', () => {
    const p: VrpProblem = {
      cost: euclid([
        [0, 0],
        [100, 0],
        [1, 0],
      ]),
      stops: [{ location: 1 }, { location: 2 }],
      vehicles: [{ start: 0, end: 0, capacity: 5, shiftStart: 8 * 3600, maxDuration: 150 }],
    }
    const sol = solveVrp(p, { maxIterations: 50 })
    expect(sol.unassigned).toEqual([{ stop: 0, reason: 'shift' }])
    expect(VRP_REASON_TEXT.shift).toBe('超出工作时长')
  })

  it('leaves out what the shift has no time left for, and keeps every run within its shift', () => {
    const p: VrpProblem = {
      cost: euclid([
        [0, 0],
        [10, 0],
        [0, 10],
        [-10, 0],
      ]),
      stops: [1, 2, 3].map((location) => ({ location, service: 10 })),
      vehicles: [{ start: 0, end: 0, capacity: 5, shiftStart: 0, maxDuration: 65 }],
    }
    const sol = solveVrp(p, { maxIterations: 200 })
    expect(sol.unassigned).toHaveLength(1)
    expect(sol.unassigned[0].reason).toBe('shift')
    expect(sol.routes[0].duration).toBeLessThanOrEqual(65)
  })

  it('serves a fixed stop by its vehicle even where another would be cheaper', () => {
    const pts: Pt[] = [
      [0, 0],
      [100, 0],
      [1, 0],
    ]
    const vehicles: VrpVehicle[] = [
      { start: 0, end: 0, capacity: 5 },
      { start: 1, end: 1, capacity: 5 },
    ]
    const free = solveVrp({ cost: euclid(pts), stops: [{ location: 2 }], vehicles }, { maxIterations: 20 })
    expect(free.routes.map((r) => r.vehicle)).toEqual([0])
    const fixed = solveVrp({ cost: euclid(pts), stops: [{ location: 2, vehicle: 1 }], vehicles }, { maxIterations: 20 })
    expect(fixed.routes.map((r) => r.vehicle)).toEqual([1])
    expect(fixed.cost).toBeCloseTo(198, 9)
  })

  it('on a crowded day keeps every run within capacity, windows and shift, and accounts for every stop once', () => {
    const rand = seededRandom(11)
    const pts: Pt[] = Array.from({ length: 81 }, () => [rand() * 600, rand() * 600])
    const stops: VrpStop[] = pts.slice(1).map((_, i) => {
      const start = 100 + Math.floor(rand() * 1500)
      return { location: i + 1, demand: 1 + Math.floor(rand() * 5), service: 20, window: rand() < 0.5 ? { start, end: start + 150 } : undefined }
    })
    const vehicles: VrpVehicle[] = [
      { start: 0, end: 0, capacity: 40, shiftStart: 0, maxDuration: 1800 },
      { start: 0, end: null, capacity: 60, shiftStart: 200, maxDuration: 1500 },
      { start: 5, end: 5, capacity: 50, shiftStart: 0, maxDuration: 2000 },
    ]
    const p: VrpProblem = { cost: euclid(pts), stops, vehicles }
    const sol = solveVrp(p, { maxIterations: 800, seed: 2 })
    expect(sol.unassigned.length).toBeGreaterThan(0)
    const served = sol.routes.flatMap((r) => r.stops)
    expect([...served, ...sol.unassigned.map((u) => u.stop)].sort((a, b) => a - b)).toEqual(stops.map((_, i) => i))
    for (const r of sol.routes) {
      const v = vehicles[r.vehicle]
      expect(r.load).toBeLessThanOrEqual(v.capacity)
      expect(r.endTime).toBeLessThanOrEqual(v.shiftStart! + v.maxDuration! + 1e-9)
      r.stops.forEach((s, i) => {
        const w = stops[s].window
        if (w) expect(r.serviceStarts[i]).toBeGreaterThanOrEqual(w.start)
        if (w) expect(r.serviceStarts[i]).toBeLessThanOrEqual(w.end + 1e-9)
      })
    }
    // The totals the solver reports are those of the plan checked again from scratch.
    const plan = vehicles.map((_, v) => sol.routes.find((r) => r.vehicle === v)?.stops ?? [])
    const check = evaluatePlan(p, plan)
    expect(check.violations).toEqual([])
    expect(check.cost).toBeCloseTo(sol.cost, 6)
    for (const u of sol.unassigned) expect(['capacity', 'shift', 'window']).toContain(u.reason)
  })

  it('gives the same plan for the same seed and number of iterations', () => {
    const rand = seededRandom(99)
    const pts: Pt[] = Array.from({ length: 41 }, () => [rand() * 1000, rand() * 1000])
    const p: VrpProblem = {
      cost: euclid(pts),
      stops: pts.slice(1).map((_, i) => ({ location: i + 1, demand: 1 + (i % 3), service: 5, window: i % 4 ? undefined : { start: 500, end: 1500 } })),
      vehicles: Array.from({ length: 6 }, () => ({ start: 0, end: 0, capacity: 20, shiftStart: 0, maxDuration: 4000 })),
    }
    const a = solveVrp(p, { maxIterations: 400, seed: 5 })
    const b = solveVrp(p, { maxIterations: 400, seed: 5 })
    expect(b.routes.map((r) => r.stops)).toEqual(a.routes.map((r) => r.stops))
    expect(b.cost).toBe(a.cost)
  })

  it('stops searching when its clock passes the time limit', () => {
    let clock = 0
    const p = randomProblem(3, {})
    const sol = solveVrp(p, { timeLimitMs: 100, now: () => (clock += 1) })
    expect(sol.iterations).toBeGreaterThan(0)
    expect(sol.iterations).toBeLessThan(100)
    expect(sol.unassigned).toEqual([])
  })

  it('starts from a given plan and repairs what breaks a rule', () => {
    const p = randomProblem(4, {})
    const optimum = bruteForce(p)
    // Everything on one vehicle is over its capacity of 10.
    const sol = solveVrp(p, { maxIterations: 1500, initial: [[0, 1, 2, 3, 4, 5, 6, 7]] })
    for (const r of sol.routes) expect(r.load).toBeLessThanOrEqual(10)
    expect(sol.cost).toBeCloseTo(optimum, 6)
  })
})

describe('bad input to the solver gets a clear message', () => {
  const base = (): VrpProblem => ({
    cost: euclid([
      [0, 0],
      [1, 0],
    ]),
    stops: [{ location: 1 }],
    vehicles: [{ start: 0, end: 0, capacity: 5 }],
  })
  const message = (p: VrpProblem): string => {
    try {
      solveVrp(p, { maxIterations: 1 })
    } catch (e) {
      expect(e).toBeInstanceOf(VrpInputError)
      return (e as Error).message
    }
    return 'no error'
  }
  it('names what is wrong', () => {
    expect(message({ ...base(), vehicles: [{ start: 0, end: 0, capacity: 0 }] })).toBe(VRP_MSG.capacityInvalid(1))
    expect(message({ ...base(), stops: [{ location: 1 }, { location: 1, window: { start: 50, end: 40 } }] })).toBe('第2个站点的时间窗结束早于开始')
    expect(message({ ...base(), stops: [{ location: 2 }] })).toBe(VRP_MSG.stopLocationInvalid(1))
    expect(message({ ...base(), stops: [{ location: 1, vehicle: 3 }] })).toBe(VRP_MSG.stopVehicleInvalid(1))
    expect(message({ ...base(), cost: { size: 2, values: [0, 1, 1] } })).toBe(VRP_MSG.matrixInvalid)
    expect(message({ ...base(), vehicles: [] })).toBe('请至少选择一名司机')
    expect(message({ ...base(), vehicles: [{ start: 0, end: 0, capacity: 5, maxDuration: 0 }] })).toBe(VRP_MSG.shiftInvalid(1))
  })
})

describe('a plan the planner edits', () => {
  it('gives each driver their totals and says which rule a moved stop breaks', () => {
    const p: VrpProblem = {
      cost: euclid([
        [0, 0],
        [10, 0],
        [20, 0],
      ]),
      distance: euclid([
        [0, 0],
        [10, 0],
        [20, 0],
      ]),
      stops: [
        { location: 1, demand: 3, service: 10 },
        { location: 2, demand: 3, window: { start: 0, end: 25 } },
      ],
      vehicles: [
        { start: 0, end: 0, capacity: 5, shiftStart: 0, maxDuration: 100 },
        { start: 0, end: 0, capacity: 5, shiftStart: 0, maxDuration: 100 },
      ],
    }
    const ok = evaluatePlan(p, [[0], [1]])
    expect(ok.violations).toEqual([])
    expect(ok.routes.map((r) => [r.cost, r.load, r.distance])).toEqual([
      [20, 3, 20],
      [40, 3, 40],
    ])
    // Both on the first driver: over the capacity, and the far stop is reached after its window.
    const moved = evaluatePlan(p, [[0, 1], []])
    expect(moved.violations).toEqual([
      { vehicle: 0, reason: 'capacity' },
      { vehicle: 0, stop: 1, reason: 'window' },
    ])
    expect(moved.routes[1]).toMatchObject({ stops: [], cost: 0, load: 0 })
    expect(moved.unplanned).toEqual([])
    expect(evaluatePlan(p, [[1]]).unplanned).toEqual([0])
    expect(() => evaluatePlan(p, [[0, 0]])).toThrow(VRP_MSG.initialInvalid)
  })
})

describe('local search moves', () => {
  // Depot at the origin, a cluster east and a cluster north.
  const pts: Pt[] = [
    [0, 0],
    [10, 0],
    [10, 1],
    [11, 0],
    [0, 10],
    [1, 10],
    [0, 11],
  ]
  const [E1, E2, E3, N1, N2, N3] = [0, 1, 2, 3, 4, 5]
  const setup = (routes: number[][], capacity = 10, windows: (VrpStop['window'] | undefined)[] = []) => {
    const problem: VrpProblem = {
      cost: euclid(pts),
      stops: pts.slice(1).map((_, i) => ({ location: i + 1, window: windows[i] })),
      vehicles: routes.map(() => ({ start: 0, end: 0, capacity, shiftStart: 0 })),
    }
    const search = new Search(compile(problem), seededRandom(1))
    const sol: Solution = search.empty()
    const rs: Route[] = routes.map((stops, v) => search.newRoute(sol, v, stops))
    return { search, sol, rs }
  }
  const recomputed = (search: Search, sol: Solution) => sol.routes.reduce((s, r) => s + search.seqCost(r.v, Int32Array.from(r.nodes), r.nodes.length), 0)

  it('relocate moves a stop into the other run and lowers the cost', () => {
    const { search, sol, rs } = setup([
      [E1, E2, N1],
      [N2, N3],
    ])
    const before = search.routesCost(sol)
    expect(search.relocate(sol, N1, rs[1], 0)).toBe(true)
    expect(rs[0].nodes).toEqual([E1, E2])
    expect(rs[1].nodes).toEqual([N1, N2, N3])
    expect(search.routesCost(sol)).toBeLessThan(before)
    expect(search.routesCost(sol)).toBeCloseTo(recomputed(search, sol), 9)
  })

  it('relocate is refused when the other run is full', () => {
    const { search, sol, rs } = setup(
      [
        [E1, N1],
        [N2, N3],
      ],
      2,
    )
    expect(search.relocate(sol, N1, rs[1], 0)).toBe(false)
    expect(rs[1].nodes).toEqual([N2, N3])
  })

  it('swap exchanges two stops between runs', () => {
    const { search, sol, rs } = setup([
      [E1, N2, E3],
      [N1, E2, N3],
    ])
    expect(search.swap(sol, N2, E2)).toBe(true)
    expect(rs[0].nodes).toEqual([E1, E2, E3])
    expect(rs[1].nodes).toEqual([N1, N2, N3])
  })

  it("2-opt* exchanges the runs' tails", () => {
    const { search, sol, rs } = setup([
      [E1, E2, N3],
      [N1, N2, E3],
    ])
    expect(search.twoOptStar(sol, E2, E3)).toBe(true)
    expect(rs[0].nodes).toEqual([E1, E2, E3])
    expect(rs[1].nodes).toEqual([N1, N2, N3])
    expect(search.routesCost(sol)).toBeCloseTo(recomputed(search, sol), 9)
  })

  it('2-opt reverses the crossing part of a run', () => {
    const { search, sol, rs } = setup([[E1, N1, E3, E2, N2, N3]])
    const before = search.routesCost(sol)
    expect(search.twoOpt(sol, E1, E2)).toBe(true)
    expect(rs[0].nodes).toEqual([E1, E2, E3, N1, N2, N3])
    expect(search.routesCost(sol)).toBeLessThan(before)
  })

  it('2-opt is refused when the shorter order misses a window', () => {
    // The crossing run reaches N1 at 24.1; uncrossed it would reach N1 last, at 27.3.
    const free = setup([[E1, N1, E3, E2]])
    expect(free.search.twoOpt(free.sol, E1, E2)).toBe(true)
    expect(free.rs[0].nodes).toEqual([E1, E2, E3, N1])
    const windowed = setup([[E1, N1, E3, E2]], 10, [undefined, undefined, undefined, { start: 0, end: 25 }])
    expect(windowed.search.twoOpt(windowed.sol, E1, E2)).toBe(false)
    expect(windowed.rs[0].nodes).toEqual([E1, N1, E3, E2])
  })

  it('Or-opt moves a string of stops to the other run, in its cheaper direction', () => {
    const { search, sol, rs } = setup([[E1, N1, N2, E2], [N3]])
    expect(search.orOpt(sol, N1, N3, 2, false)).toBe(true)
    expect(rs[0].nodes).toEqual([E1, E2])
    expect(rs[1].nodes).toEqual([N3, N1, N2])
    expect(search.routesCost(sol)).toBeCloseTo(recomputed(search, sol), 9)
  })

  it('the local search reaches a run per cluster from a mixed start', () => {
    // Three stops per vehicle: one run through both clusters would be shorter.
    const { search, sol } = setup(
      [
        [E1, N2, E3],
        [N1, E2, N3],
      ],
      3,
    )
    search.localSearch(sol, 10, Infinity, () => 0)
    const runs = sol.routes.map((r) => [...r.nodes].sort()).sort((a, b) => a[0] - b[0])
    expect(runs).toEqual([
      [E1, E2, E3],
      [N1, N2, N3],
    ])
  })
})
