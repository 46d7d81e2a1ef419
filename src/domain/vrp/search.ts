/**
 * The search over a compiled model: routes with their loads, costs and schedules (earliest service
 * start forward, latest service start backward, so an insertion is checked in O(1)), the
 * ruin-and-recreate of SISR (Christiaens & Vanden Berghe 2020: adjacent string removal, greedy
 * insertion with blinks) and a local search (relocate, swap, 2-opt*, 2-opt, Or-opt) whose moves are
 * priced from the arcs they change and only then built and checked against capacity and time.
 */
import type { Model } from './model'

export class Route {
  nodes: number[]
  load = 0
  cost = 0
  /** Earliest service start at each position: 0 is the start node, 1..k the stops, k+1 the end node (only when the model is timed). */
  st: number[] = []
  /** Latest service start at each position that keeps the rest of the run feasible. */
  lt: number[] = []

  constructor(
    readonly v: number,
    readonly s: number,
    readonly e: number,
    nodes: number[],
  ) {
    this.nodes = nodes
  }
}

export interface Solution {
  routes: Route[]
  unassigned: number[]
  /** Whether each vehicle has a route. */
  used: Uint8Array
  routeOf: (Route | null)[]
  pos: Int32Array
}

const EPS = 1e-9

export class Search {
  readonly m: Model
  readonly rand: () => number
  /** Every customer's other customers, nearest first (by the cost both ways). */
  readonly adjacency: Int32Array
  /** What an unserved stop costs in the objective: more than serving any stop could. */
  readonly penalty: number
  readonly symmetric: boolean
  readonly hasPins: boolean
  /** Vehicles of each class, in index order. */
  readonly classVehicles: number[][]
  /** Distance of each customer from the first vehicle's start, for the recreate orders. */
  private readonly depotDistance: Float64Array
  private readonly buf1: Int32Array
  private readonly buf2: Int32Array

  constructor(m: Model, rand: () => number) {
    this.m = m
    this.rand = rand
    const { n, N, cost } = m
    let max = 0
    let symmetric = true
    for (let a = 0; a < N; a++)
      for (let b = 0; b < N; b++) {
        const c = cost[a * N + b]
        if (c > max) max = c
        if (symmetric && a < n && b < n && c !== cost[b * N + a]) symmetric = false
      }
    this.symmetric = symmetric
    this.penalty = 4 * max * N + 1
    this.hasPins = m.pin.some((v) => v >= 0)
    const adjacency = new Int32Array(n * Math.max(0, n - 1))
    const key = new Float64Array(n)
    const order: number[] = []
    for (let u = 0; u < n; u++) {
      order.length = 0
      for (let w = 0; w < n; w++) {
        if (w === u) continue
        key[w] = cost[u * N + w] + cost[w * N + u]
        order.push(w)
      }
      order.sort((a, b) => key[a] - key[b] || a - b)
      adjacency.set(order, u * (n - 1))
    }
    this.adjacency = adjacency
    this.classVehicles = Array.from({ length: m.classCount }, () => [])
    for (let v = 0; v < m.V; v++) this.classVehicles[m.vehicleClass[v]].push(v)
    this.depotDistance = new Float64Array(n)
    const s0 = m.startNode[0]
    for (let u = 0; u < n; u++) this.depotDistance[u] = cost[s0 * N + u]
    this.buf1 = new Int32Array(n + 2)
    this.buf2 = new Int32Array(n + 2)
  }

  // -------------------------------------------------------------------------------------------
  // Solutions and routes

  empty(): Solution {
    const { n, V } = this.m
    return { routes: [], unassigned: [], used: new Uint8Array(V), routeOf: new Array(n).fill(null), pos: new Int32Array(n) }
  }

  newRoute(sol: Solution, v: number, nodes: number[]): Route {
    const r = new Route(v, this.m.startNode[v], this.m.endNode[v], nodes)
    sol.routes.push(r)
    sol.used[v] = 1
    this.refresh(sol, r)
    return r
  }

  /** Recomputes a route's load, cost, schedule and its customers' positions; drops it from the solution when empty. */
  refresh(sol: Solution, r: Route): void {
    const { N, cost, time, demand, service, early, late, timed } = this.m
    const nodes = r.nodes
    const k = nodes.length
    if (k === 0) {
      const i = sol.routes.indexOf(r)
      if (i >= 0) sol.routes.splice(i, 1)
      sol.used[r.v] = 0
      r.load = 0
      r.cost = 0
      return
    }
    let load = 0
    let c = 0
    let prev = r.s
    for (let i = 0; i < k; i++) {
      const u = nodes[i]
      load += demand[u]
      c += cost[prev * N + u]
      sol.routeOf[u] = r
      sol.pos[u] = i
      prev = u
    }
    c += cost[prev * N + r.e]
    r.load = load
    r.cost = c
    if (!timed) return
    const st = r.st
    const lt = r.lt
    st.length = k + 2
    lt.length = k + 2
    st[0] = early[r.s]
    prev = r.s
    for (let i = 1; i <= k + 1; i++) {
      const u = i <= k ? nodes[i - 1] : r.e
      const a = st[i - 1] + service[prev] + time[prev * N + u]
      st[i] = a > early[u] ? a : early[u]
      prev = u
    }
    lt[k + 1] = late[r.e]
    let next = r.e
    for (let i = k; i >= 0; i--) {
      const u = i >= 1 ? nodes[i - 1] : r.s
      const l = lt[i + 1] - time[u * N + next] - service[u]
      lt[i] = l < late[u] ? l : late[u]
      next = u
    }
  }

  clone(sol: Solution): Solution {
    const out: Solution = { routes: [], unassigned: sol.unassigned.slice(), used: sol.used.slice(), routeOf: new Array(this.m.n).fill(null), pos: sol.pos.slice() }
    for (const r of sol.routes) {
      const c = new Route(r.v, r.s, r.e, r.nodes.slice())
      c.load = r.load
      c.cost = r.cost
      c.st = r.st.slice()
      c.lt = r.lt.slice()
      for (const u of c.nodes) out.routeOf[u] = c
      out.routes.push(c)
    }
    return out
  }

  routesCost(sol: Solution): number {
    let c = 0
    for (const r of sol.routes) c += r.cost
    return c
  }

  objective(sol: Solution): number {
    return this.routesCost(sol) + this.penalty * sol.unassigned.length
  }

  // -------------------------------------------------------------------------------------------
  // Insertion

  /** Whether `u` fits between positions `i` (node `prev`) and `i + 1` (node `next`) of a route's schedule. */
  private timeFits(r: Route, i: number, prev: number, u: number, next: number): boolean {
    const { N, time, service, early, late } = this.m
    let a = r.st[i] + service[prev] + time[prev * N + u]
    if (a < early[u]) a = early[u]
    if (a > late[u]) return false
    return a + service[u] + time[u * N + next] <= r.lt[i + 1] + EPS
  }

  /** Whether a fresh run of vehicle `v` can serve `u` alone. */
  aloneFits(v: number, u: number, ignoreShift = false): boolean {
    const { N, time, service, early, late, demand, capacity, startNode, endNode } = this.m
    if (demand[u] > capacity[v]) return false
    const s = startNode[v]
    const e = endNode[v]
    let a = early[s] + time[s * N + u]
    if (a < early[u]) a = early[u]
    if (a > late[u]) return false
    return ignoreShift || a + service[u] + time[u * N + e] <= late[e] + EPS
  }

  /**
   * Inserts `u` where it adds least (each position skipped with probability `blink`), into a used
   * route or a fresh run of an unused vehicle; false when it fits nowhere.
   */
  insertBest(sol: Solution, u: number, blink: number): boolean {
    const { N, cost, demand, capacity, pin, timed } = this.m
    const q = demand[u]
    const pinned = pin[u]
    // Positions to the next blink, drawn from the geometric distribution: one random number per blink instead of one per position.
    const logKeep = blink > 0 ? Math.log(1 - blink) : 0
    const gap = (): number => (blink > 0 ? Math.floor(Math.log(1 - this.rand()) / logKeep) : Infinity)
    let untilBlink = gap()
    let best = Infinity
    let bestRoute: Route | null = null
    let bestPos = -1
    for (const r of sol.routes) {
      if (pinned >= 0 && r.v !== pinned) continue
      if (r.load + q > capacity[r.v] + EPS) continue
      const nodes = r.nodes
      const k = nodes.length
      let prev = r.s
      for (let i = 0; i <= k; i++) {
        const next = i < k ? nodes[i] : r.e
        if (untilBlink-- === 0) {
          untilBlink = gap()
          prev = next
          continue
        }
        const d = cost[prev * N + u] + cost[u * N + next] - cost[prev * N + next]
        if (d < best && (!timed || this.timeFits(r, i, prev, u, next))) {
          best = d
          bestRoute = r
          bestPos = i
        }
        prev = next
      }
    }
    let bestVehicle = -1
    for (const list of this.classVehicles) {
      let v = -1
      if (pinned >= 0) {
        if (list.includes(pinned) && !sol.used[pinned]) v = pinned
      } else {
        for (const w of list)
          if (!sol.used[w]) {
            v = w
            break
          }
      }
      if (v < 0) continue
      const s = this.m.startNode[v]
      const e = this.m.endNode[v]
      const d = cost[s * N + u] + cost[u * N + e]
      if (d < best && this.aloneFits(v, u)) {
        best = d
        bestVehicle = v
        bestRoute = null
      }
    }
    if (bestRoute) {
      bestRoute.nodes.splice(bestPos, 0, u)
      this.refresh(sol, bestRoute)
      return true
    }
    if (bestVehicle >= 0) {
      this.newRoute(sol, bestVehicle, [u])
      return true
    }
    return false
  }

  /** Inserts the customers in the order given; those that fit nowhere join the unassigned. */
  recreate(sol: Solution, customers: number[], blink: number): void {
    for (const u of customers) {
      if (!this.insertBest(sol, u, blink)) {
        sol.unassigned.push(u)
        sol.routeOf[u] = null
      }
    }
  }

  // -------------------------------------------------------------------------------------------
  // SISR ruin and recreate

  /** Removes strings of customers around a random seed customer from routes near it (adjacent string removal). */
  ruin(sol: Solution, averageRemoved: number, maxString: number): number[] {
    const { n } = this.m
    const removed: number[] = []
    if (!sol.routes.length) return removed
    let assigned = 0
    for (const r of sol.routes) assigned += r.nodes.length
    const lsMax = Math.min(maxString, assigned / sol.routes.length)
    const ksMax = (4 * averageRemoved) / (1 + lsMax) - 1
    const ks = Math.floor(this.rand() * ksMax) + 1
    let seed = Math.floor(this.rand() * n)
    for (let tries = 0; sol.routeOf[seed] === null && tries < n; tries++) seed = (seed + 1) % n
    if (sol.routeOf[seed] === null) return removed
    // Each ruined route with its stops before the ruin.
    const ruined = new Map<Route, number[]>()
    const base = seed * (n - 1)
    for (let j = -1; j < n - 1 && ruined.size < ks; j++) {
      const c = j < 0 ? seed : this.adjacency[base + j]
      const r = sol.routeOf[c]
      if (!r || ruined.has(r)) continue
      ruined.set(r, r.nodes.slice())
      const t = r.nodes.length
      const lMax = Math.min(t, lsMax)
      const l = Math.floor(this.rand() * lMax) + 1
      const p = sol.pos[c]
      if (l >= t || this.rand() < 0.5) {
        // A string of l customers containing c.
        const lo = Math.max(0, p - l + 1)
        const hi = Math.min(p, t - l)
        const start = lo + Math.floor(this.rand() * (hi - lo + 1))
        for (const u of r.nodes.splice(start, l)) removed.push(u)
      } else {
        // A split string: l + m customers containing c, of which m in a row stay.
        let m = 1
        while (m < t - l && this.rand() > 0.01) m++
        const len = l + m
        const lo = Math.max(0, p - len + 1)
        const hi = Math.min(p, t - len)
        const start = lo + Math.floor(this.rand() * (hi - lo + 1))
        const keepAt = start + Math.floor(this.rand() * (l + 1))
        const kept: number[] = []
        for (let i = 0; i < t; i++) {
          const u = r.nodes[i]
          if (i >= start && i < start + len && (i < keepAt || i >= keepAt + m)) removed.push(u)
          else kept.push(u)
        }
        r.nodes = kept
      }
    }
    for (const u of removed) sol.routeOf[u] = null
    for (const [r, before] of ruined) {
      this.refresh(sol, r)
      // Road times need not obey the triangle inequality: a shortcut past a removed stop can be
      // slower and miss a window later on. Such a run keeps its stops.
      if (this.m.timed && r.nodes.length && !this.onTime(r)) {
        r.nodes = before
        this.refresh(sol, r)
      }
    }
    return removed.filter((u) => sol.routeOf[u] === null)
  }

  /** Whether a route's schedule meets every window and its shift (after a change that is not checked beforehand). */
  private onTime(r: Route): boolean {
    const { late } = this.m
    const k = r.nodes.length
    for (let i = 1; i <= k; i++) if (r.st[i] > late[r.nodes[i - 1]] + EPS) return false
    return r.st[k + 1] <= late[r.e] + EPS
  }

  /** Orders the customers to insert: random, largest demand, farthest or nearest to the depot (weights 4, 4, 2, 1, as in SISR). */
  sortForRecreate(customers: number[]): void {
    for (let i = customers.length - 1; i > 0; i--) {
      const j = Math.floor(this.rand() * (i + 1))
      const t = customers[i]
      customers[i] = customers[j]
      customers[j] = t
    }
    const pick = this.rand() * 11
    const { demand } = this.m
    const dd = this.depotDistance
    if (pick < 4) return
    if (pick < 8) customers.sort((a, b) => demand[b] - demand[a])
    else if (pick < 10) customers.sort((a, b) => dd[b] - dd[a])
    else customers.sort((a, b) => dd[a] - dd[b])
  }

  // -------------------------------------------------------------------------------------------
  // Local search

  /** Cost of vehicle v's run over `len` nodes of `seq` (0 when empty: an unused vehicle costs nothing). */
  seqCost(v: number, seq: Int32Array, len: number): number {
    if (len === 0) return 0
    const { N, cost, startNode, endNode } = this.m
    let c = cost[startNode[v] * N + seq[0]]
    for (let i = 1; i < len; i++) c += cost[seq[i - 1] * N + seq[i]]
    return c + cost[seq[len - 1] * N + endNode[v]]
  }

  /** Whether vehicle v may run `seq`: capacity, fixed stops, windows and shift. */
  seqFeasible(v: number, seq: ArrayLike<number>, len: number): boolean {
    const { demand, capacity, pin, timed } = this.m
    let load = 0
    for (let i = 0; i < len; i++) {
      load += demand[seq[i]]
      if (this.hasPins && pin[seq[i]] >= 0 && pin[seq[i]] !== v) return false
    }
    if (load > capacity[v] + EPS) return false
    return !timed || this.timeFeasible(v, seq, len)
  }

  /** Whether vehicle v's schedule over `seq` meets every window and, unless `ignoreShift`, the end of its shift. */
  timeFeasible(v: number, seq: ArrayLike<number>, len: number, ignoreShift = false): boolean {
    if (len === 0) return true
    const { N, time, service, early, late, startNode, endNode } = this.m
    let prev = startNode[v]
    let t = early[prev]
    for (let i = 0; i <= len; i++) {
      const u = i < len ? seq[i] : endNode[v]
      t += service[prev] + time[prev * N + u]
      if (t < early[u]) t = early[u]
      if (t > late[u] + EPS && !(ignoreShift && i === len)) return false
      prev = u
    }
    return true
  }

  private apply(sol: Solution, r: Route, seq: Int32Array, len: number): void {
    r.nodes = Array.from(seq.subarray(0, len))
    this.refresh(sol, r)
  }

  /** Builds the changed routes into the buffers, checks them and applies them when they cost less. */
  private commit(sol: Solution, r1: Route, len1: number, r2: Route | null, len2: number): boolean {
    const old = r1.cost + (r2 ? r2.cost : 0)
    const c = this.seqCost(r1.v, this.buf1, len1) + (r2 ? this.seqCost(r2.v, this.buf2, len2) : 0)
    if (c >= old - EPS) return false
    if (!this.seqFeasible(r1.v, this.buf1, len1)) return false
    if (r2 && !this.seqFeasible(r2.v, this.buf2, len2)) return false
    this.apply(sol, r1, this.buf1, len1)
    if (r2) this.apply(sol, r2, this.buf2, len2)
    return true
  }

  private prevOf(r: Route, i: number): number {
    return i > 0 ? r.nodes[i - 1] : r.s
  }

  private nextOf(r: Route, i: number): number {
    return i < r.nodes.length - 1 ? r.nodes[i + 1] : r.e
  }

  /** Moves u to just before position j of route rw (j may be rw.nodes.length: the end). */
  relocate(sol: Solution, u: number, rw: Route, j: number): boolean {
    const { N, cost, demand, capacity, pin } = this.m
    const ru = sol.routeOf[u]!
    const iu = sol.pos[u]
    if (ru === rw && (j === iu || j === iu + 1)) return false
    if (ru !== rw && (rw.load + demand[u] > capacity[rw.v] + EPS || (pin[u] >= 0 && pin[u] !== rw.v))) return false
    const pu = this.prevOf(ru, iu)
    const nu = this.nextOf(ru, iu)
    const a = j > 0 ? rw.nodes[j - 1] : rw.s
    const b = j < rw.nodes.length ? rw.nodes[j] : rw.e
    const delta = cost[pu * N + nu] - cost[pu * N + u] - cost[u * N + nu] + cost[a * N + u] + cost[u * N + b] - cost[a * N + b]
    if (delta >= -EPS) return false
    if (ru === rw) {
      let len = 0
      const nodes = ru.nodes
      for (let i = 0; i <= nodes.length; i++) {
        if (i === j) this.buf1[len++] = u
        if (i < nodes.length && i !== iu) this.buf1[len++] = nodes[i]
      }
      return this.commit(sol, ru, len, null, 0)
    }
    let len1 = 0
    for (let i = 0; i < ru.nodes.length; i++) if (i !== iu) this.buf1[len1++] = ru.nodes[i]
    let len2 = 0
    for (let i = 0; i <= rw.nodes.length; i++) {
      if (i === j) this.buf2[len2++] = u
      if (i < rw.nodes.length) this.buf2[len2++] = rw.nodes[i]
    }
    return this.commit(sol, ru, len1, rw, len2)
  }

  /** Exchanges u and w (not neighbours in one route: relocate covers that). */
  swap(sol: Solution, u: number, w: number): boolean {
    const { N, cost, demand, capacity, pin } = this.m
    const ru = sol.routeOf[u]!
    const rw = sol.routeOf[w]!
    const iu = sol.pos[u]
    const iw = sol.pos[w]
    if (ru === rw && Math.abs(iu - iw) < 2) return false
    if (ru !== rw) {
      if (ru.load - demand[u] + demand[w] > capacity[ru.v] + EPS || rw.load - demand[w] + demand[u] > capacity[rw.v] + EPS) return false
      if ((pin[u] >= 0 && pin[u] !== rw.v) || (pin[w] >= 0 && pin[w] !== ru.v)) return false
    }
    const pu = this.prevOf(ru, iu)
    const nu = this.nextOf(ru, iu)
    const pw = this.prevOf(rw, iw)
    const nw = this.nextOf(rw, iw)
    const delta = cost[pu * N + w] + cost[w * N + nu] - cost[pu * N + u] - cost[u * N + nu] + cost[pw * N + u] + cost[u * N + nw] - cost[pw * N + w] - cost[w * N + nw]
    if (delta >= -EPS) return false
    if (ru === rw) {
      const len = ru.nodes.length
      for (let i = 0; i < len; i++) this.buf1[i] = i === iu ? w : i === iw ? u : ru.nodes[i]
      return this.commit(sol, ru, len, null, 0)
    }
    for (let i = 0; i < ru.nodes.length; i++) this.buf1[i] = i === iu ? w : ru.nodes[i]
    for (let i = 0; i < rw.nodes.length; i++) this.buf2[i] = i === iw ? u : rw.nodes[i]
    return this.commit(sol, ru, ru.nodes.length, rw, rw.nodes.length)
  }

  /** 2-opt* between two routes, making the arc u -> w: u's route takes w's tail, w's route takes the rest of u's. */
  twoOptStar(sol: Solution, u: number, w: number): boolean {
    const { N, cost, demand, capacity } = this.m
    const ru = sol.routeOf[u]!
    const rw = sol.routeOf[w]!
    if (ru === rw) return false
    const iu = sol.pos[u]
    const iw = sol.pos[w]
    const k1 = ru.nodes.length
    const k2 = rw.nodes.length
    const pw = this.prevOf(rw, iw)
    const last2 = rw.nodes[k2 - 1]
    const e1 = ru.e
    const e2 = rw.e
    let delta: number
    if (iu === k1 - 1) delta = cost[u * N + w] + cost[last2 * N + e1] + cost[pw * N + e2] - cost[u * N + e1] - cost[pw * N + w] - cost[last2 * N + e2]
    else {
      const f1 = ru.nodes[iu + 1]
      const last1 = ru.nodes[k1 - 1]
      delta = cost[u * N + w] + cost[last2 * N + e1] + cost[pw * N + f1] + cost[last1 * N + e2] - cost[u * N + f1] - cost[last1 * N + e1] - cost[pw * N + w] - cost[last2 * N + e2]
    }
    if (delta >= -EPS) return false
    let headLoad1 = 0
    for (let i = 0; i <= iu; i++) headLoad1 += demand[ru.nodes[i]]
    let headLoad2 = 0
    for (let i = 0; i < iw; i++) headLoad2 += demand[rw.nodes[i]]
    if (headLoad1 + (rw.load - headLoad2) > capacity[ru.v] + EPS || headLoad2 + (ru.load - headLoad1) > capacity[rw.v] + EPS) return false
    let len1 = 0
    for (let i = 0; i <= iu; i++) this.buf1[len1++] = ru.nodes[i]
    for (let i = iw; i < k2; i++) this.buf1[len1++] = rw.nodes[i]
    let len2 = 0
    for (let i = 0; i < iw; i++) this.buf2[len2++] = rw.nodes[i]
    for (let i = iu + 1; i < k1; i++) this.buf2[len2++] = ru.nodes[i]
    return this.commit(sol, ru, len1, rw, len2)
  }

  /** 2-opt within a route, making the arc u -> w by reversing what lies between (u before w). */
  twoOpt(sol: Solution, u: number, w: number): boolean {
    const { N, cost } = this.m
    const r = sol.routeOf[u]!
    if (sol.routeOf[w] !== r) return false
    const iu = sol.pos[u]
    const iw = sol.pos[w]
    if (iw <= iu + 1) return false
    const nu = r.nodes[iu + 1]
    const nw = this.nextOf(r, iw)
    let delta = cost[u * N + w] + cost[nu * N + nw] - cost[u * N + nu] - cost[w * N + nw]
    if (!this.symmetric) for (let i = iu + 1; i < iw; i++) delta += cost[r.nodes[i + 1] * N + r.nodes[i]] - cost[r.nodes[i] * N + r.nodes[i + 1]]
    if (delta >= -EPS) return false
    const len = r.nodes.length
    for (let i = 0; i < len; i++) this.buf1[i] = i > iu && i <= iw ? r.nodes[iu + 1 + iw - i] : r.nodes[i]
    return this.commit(sol, r, len, null, 0)
  }

  /** Or-opt: moves the string of `size` stops starting at u to just after w (reversed when `reverse`), in any route. */
  orOpt(sol: Solution, u: number, w: number, size: number, reverse: boolean): boolean {
    const { N, cost, demand, capacity } = this.m
    const ru = sol.routeOf[u]!
    const rw = sol.routeOf[w]!
    const iu = sol.pos[u]
    const k1 = ru.nodes.length
    if (iu + size > k1) return false
    const iw = sol.pos[w]
    if (ru === rw && iw >= iu - 1 && iw < iu + size) return false
    const first = u
    const last = ru.nodes[iu + size - 1]
    let load = 0
    for (let i = iu; i < iu + size; i++) load += demand[ru.nodes[i]]
    if (ru !== rw && rw.load + load > capacity[rw.v] + EPS) return false
    const p = this.prevOf(ru, iu)
    const nx = this.nextOf(ru, iu + size - 1)
    const nw = this.nextOf(rw, iw)
    let delta = cost[p * N + nx] - cost[p * N + first] - cost[last * N + nx] - cost[w * N + nw]
    if (reverse) {
      delta += cost[w * N + last] + cost[first * N + nw]
      for (let i = iu; i < iu + size - 1; i++) delta += cost[ru.nodes[i + 1] * N + ru.nodes[i]] - cost[ru.nodes[i] * N + ru.nodes[i + 1]]
    } else delta += cost[w * N + first] + cost[last * N + nw]
    if (delta >= -EPS) return false
    const moved = (k: number): number => ru.nodes[reverse ? iu + size - 1 - k : iu + k]
    if (ru === rw) {
      let len = 0
      for (let i = 0; i < k1; i++) {
        if (i >= iu && i < iu + size) continue
        this.buf1[len++] = ru.nodes[i]
        if (i === iw) for (let k = 0; k < size; k++) this.buf1[len++] = moved(k)
      }
      return this.commit(sol, ru, len, null, 0)
    }
    let len1 = 0
    for (let i = 0; i < k1; i++) if (i < iu || i >= iu + size) this.buf1[len1++] = ru.nodes[i]
    let len2 = 0
    for (let i = 0; i < rw.nodes.length; i++) {
      this.buf2[len2++] = rw.nodes[i]
      if (i === iw) for (let k = 0; k < size; k++) this.buf2[len2++] = moved(k)
    }
    return this.commit(sol, ru, len1, rw, len2)
  }

  /** First-improvement descent over the moves, each customer against its `neighbours` nearest; stops at a local optimum or at `deadline`. */
  localSearch(sol: Solution, neighbours: number, deadline: number, now: () => number): void {
    const { n } = this.m
    const K = Math.min(neighbours, n - 1)
    const order = Array.from({ length: n }, (_, i) => i)
    let improved = true
    while (improved && now() < deadline) {
      improved = false
      for (let i = n - 1; i > 0; i--) {
        const j = Math.floor(this.rand() * (i + 1))
        const t = order[i]
        order[i] = order[j]
        order[j] = t
      }
      for (let o = 0; o < n; o++) {
        const u = order[o]
        // A pass over hundreds of stops takes a while: look at the clock every 64 stops.
        if ((o & 63) === 63 && now() >= deadline) return
        if (!sol.routeOf[u]) continue
        const base = u * (n - 1)
        for (let k = 0; k < K; k++) {
          const w = this.adjacency[base + k]
          const rw = sol.routeOf[w]
          if (!rw || !sol.routeOf[u]) continue
          if (
            this.relocate(sol, u, rw, sol.pos[w] + 1) ||
            this.relocate(sol, u, rw, sol.pos[w]) ||
            this.swap(sol, u, w) ||
            this.twoOptStar(sol, u, w) ||
            this.twoOpt(sol, u, w) ||
            this.orOpt(sol, u, w, 2, false) ||
            this.orOpt(sol, u, w, 3, false) ||
            this.orOpt(sol, u, w, 2, true) ||
            this.orOpt(sol, u, w, 3, true)
          ) {
            improved = true
          }
        }
      }
    }
  }
}
