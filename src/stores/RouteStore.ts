/**
 * Route planning (/route and /route/add): the routes the user sees, deleting and sharing
 * them (share type 3 through the share dialog), and the route being edited (RouteDraft): name,
 * travel mode, ordered stops from the group's markers, typed coordinates or the current position,
 * and its distance and time — at once as the straight line (src/domain/routes.ts, works offline),
 * then as the server measures it along roads or paths when a map provider is configured.
 */
import { makeAutoObservable, observable, runInAction } from 'mobx'
import type { Marker, MarkerType } from '../../types/mapdata'
import type { RoutePlan, RouteStop, RouteStopInput, SavedRoute, TravelMode } from '../../types/routes'
import { FEATURES, featureOpen, holdsModule } from '../domain/moduleGate'
import { PERM } from '../domain/permissions'
import { ROUTE_MSG } from '../domain/routeMessages'
import { checkAppend, checkRoute, checkStops, isEstimate, markerStopPoint, moveDown, moveUp, nearestNextOrder, parseStopCoordinate, planKey, removeAt, stopName, straightPlan } from '../domain/routes'
import type { LngLat } from '../domain/geo'
import { MarkerSearch } from './MarkerSearch'
import type { RootStore } from './RootStore'

export const ROUTE_PAGE_SIZE = 20
/** Markers offered per search. */
export const ROUTE_SEARCH_SIZE = 50
/** Quiet time after the last change before the server measures the route again. */
export const ROUTE_PLAN_DELAY_MS = 600

/** A stop in the editor, with a key that stays with it while it moves. */
export interface DraftStop extends RouteStop {
  key: number
}

let stopKeys = 0

function draftStop(stop: RouteStop): DraftStop {
  return { ...stop, key: ++stopKeys }
}

/** What the server is sent for a stop: a marker by id (it reads name and place), a point as it is. */
export function stopInput(stop: RouteStop): RouteStopInput {
  return stop.marker_id !== null ? { marker_id: stop.marker_id } : { name: stop.name, lng: stop.lng, lat: stop.lat }
}

/** The route being created or edited on /route/add. */
export class RouteDraft {
  id: number | undefined = undefined
  name = ''
  mode: TravelMode = 'driving'
  stops: DraftStop[] = []
  /** The server's last measurement (null until one arrives); shown only while it matches the stops. */
  measured: RoutePlan | null = null
  /** The server said no map provider is configured: its figures would be the straight line again. */
  noProvider = false
  planning = false
  saving = false
  /** Loading a saved route for editing. */
  loading = false

  /** Markers found by name to pick from. */
  readonly markerSearch: MarkerSearch

  private planTimer: unknown = null

  constructor(private readonly root: RootStore) {
    this.markerSearch = new MarkerSearch(root, ROUTE_MSG.searchKwRequired, ROUTE_SEARCH_SIZE)
    makeAutoObservable<RouteDraft, 'root' | 'planTimer'>(this, { root: false, planTimer: false, measured: observable.ref, markerSearch: false })
  }

  /** The straight-line plan of the current stops (immediate, offline). */
  get straight(): RoutePlan {
    return straightPlan(this.mode, this.stops)
  }

  /** What the page shows: the server's measurement when it is for these stops, else the straight line. */
  get plan(): RoutePlan {
    const m = this.measured
    return m && planKey(m.mode, m.stops) === planKey(this.mode, this.stops) ? m : this.straight
  }

  get estimate(): boolean {
    return isEstimate(this.plan)
  }

  get canMeasure(): boolean {
    return checkStops(this.stops) === null
  }

  startNew(): void {
    this.clearTimer()
    this.id = undefined
    this.name = ''
    this.mode = 'driving'
    this.stops = []
    this.measured = null
    this.markerSearch.clear()
  }

  /** Loads a saved route into the editor; false when it cannot be read. */
  async startEdit(id: number): Promise<boolean> {
    this.startNew()
    this.loading = true
    const route = await this.root.api.post('/api/route/getbyid', { id })
    runInAction(() => {
      this.loading = false
      if (!route) return
      this.id = route.id
      this.name = route.name
      this.mode = route.mode
      this.stops = route.stops.map(draftStop)
      this.measured = route
    })
    return !!route
  }

  setName(name: string): void {
    this.name = name
  }

  setMode(mode: TravelMode): void {
    if (mode === this.mode) return
    this.mode = mode
    this.schedulePlan()
  }

  /** Adds a stop at the end; the message when it cannot be added (same place as the last, too many). */
  private append(stop: RouteStop): string | null {
    const problem = checkAppend(this.stops, stop)
    if (problem) return problem
    this.stops = [...this.stops, draftStop(stop)]
    this.schedulePlan()
    return null
  }

  /** A marker of the group as the next stop, where it stands (domain markerStopPoint). */
  addMarker(marker: Pick<Marker, 'id' | 'name' | 'type' | 'points'>): string | null {
    const at = markerStopPoint(marker.type as MarkerType, marker.points)
    if (!at) return ROUTE_MSG.markerNoPosition
    return this.append({ marker_id: marker.id, name: stopName(marker.name, at), lng: at.lng, lat: at.lat })
  }

  /** Typed 'lng,lat' (GCJ-02) as the next stop, with an optional name. */
  addCoordinate(text: string, name = ''): string | null {
    const parsed = parseStopCoordinate(text)
    if (!parsed.ok) return parsed.error
    return this.append({ marker_id: null, name: stopName(name, parsed.point), ...parsed.point })
  }

  /** The user's position as the next stop. */
  addPosition(p: LngLat): string | null {
    const parsed = parseStopCoordinate(`${p.lng},${p.lat}`)
    if (!parsed.ok) return parsed.error
    return this.append({ marker_id: null, name: ROUTE_MSG.myPosition, ...parsed.point })
  }

  moveUp(index: number): void {
    this.setStops(moveUp(this.stops, index))
  }

  moveDown(index: number): void {
    this.setStops(moveDown(this.stops, index))
  }

  remove(index: number): void {
    this.setStops(removeAt(this.stops, index))
  }

  reverse(): void {
    this.setStops([...this.stops].reverse())
  }

  /** Nearest stop next, from the first. */
  sortByDistance(): void {
    this.setStops(nearestNextOrder(this.stops))
  }

  private setStops(stops: DraftStop[]): void {
    this.stops = stops
    this.schedulePlan()
  }

  // ---- measuring ------------------------------------------------------------------------------

  /** Measures again after a quiet moment (each change restarts the wait). */
  schedulePlan(): void {
    this.clearTimer()
    if (this.noProvider || !this.canMeasure) return
    this.planTimer = this.root.scheduler.setTimeout(() => {
      this.planTimer = null
      void this.measure()
    }, ROUTE_PLAN_DELAY_MS)
  }

  /** Asks the server to measure the current stops (quietly: offline, the straight line stays). */
  async measure(): Promise<void> {
    if (this.noProvider || !this.canMeasure) return
    const key = planKey(this.mode, this.stops)
    this.planning = true
    try {
      const res = await this.root.api.request('/api/route/plan', { mode: this.mode, stops: this.stops.map(stopInput) }, { background: true, quiet: true })
      runInAction(() => {
        if (!res.provider) this.noProvider = true
        // An answer for stops that have changed since is dropped (a newer one is on its way).
        if (planKey(res.mode, res.stops) === key) this.measured = res
      })
    } catch {
      // Offline or refused: the straight-line figures stay; saving will say what is wrong.
    } finally {
      runInAction(() => (this.planning = false))
    }
  }

  private clearTimer(): void {
    if (this.planTimer !== null) this.root.scheduler.clearTimeout(this.planTimer)
    this.planTimer = null
  }

  // ---- markers to pick from -------------------------------------------------------------------

  /** Whether the marker is already a stop (the list marks it). */
  hasMarker(id: number): boolean {
    return this.stops.some((s) => s.marker_id === id)
  }

  // ---- saving ---------------------------------------------------------------------------------

  /** Checks (name, mode, stops), saves, and returns the saved route; undefined after a message. */
  async save(): Promise<SavedRoute | undefined> {
    if (this.saving) return undefined
    const problem = checkRoute({ name: this.name, mode: this.mode, stops: this.stops })
    if (problem) {
      this.root.app.notify(problem, 'warning')
      return undefined
    }
    this.saving = true
    const saved = await this.root.api.post('/api/route/save', {
      ...(this.id !== undefined ? { id: this.id } : {}),
      name: this.name.trim(),
      mode: this.mode,
      stops: this.stops.map(stopInput),
    })
    runInAction(() => {
      this.saving = false
      if (!saved) return
      this.id = saved.id
      this.name = saved.name
      this.stops = saved.stops.map(draftStop)
      this.measured = saved
    })
    if (saved) {
      this.root.route.upsert(saved)
      this.root.app.notify(ROUTE_MSG.saved, 'success')
    }
    return saved
  }

  dispose(): void {
    this.clearTimer()
  }
}

export class RouteStore {
  list: SavedRoute[] = []
  total = 0
  page = 0
  kw = ''
  loadingList = false
  /** The editor of /route/add (made on first use). */
  draft: RouteDraft

  constructor(private readonly root: RootStore) {
    this.draft = new RouteDraft(root)
    makeAutoObservable<RouteStore, 'root'>(this, { root: false, list: observable.ref, draft: false })
  }

  private holds(id: string): boolean {
    return holdsModule(this.root.session.user?.modules, id)
  }

  /** The module itself (PageShell blocks the pages without it). */
  get canUse(): boolean {
    return this.holds(PERM.MODULE_ROUTING)
  }

  get canAdd(): boolean {
    return this.canUse && this.holds(PERM.ROUTING_ADD)
  }

  get canDelete(): boolean {
    return this.canUse && this.holds(PERM.ROUTING_DELETE)
  }

  /** routing_share, and the share module as every share button needs. */
  get canShare(): boolean {
    return this.canUse && this.holds(PERM.ROUTING_SHARE) && featureOpen(FEATURES.share, this.root.session.user?.modules)
  }

  get isManager(): boolean {
    return this.root.session.is_admin || !!this.root.session.user?.is_manager
  }

  get hasMore(): boolean {
    return this.list.length < this.total
  }

  async load(page = 1): Promise<boolean> {
    this.loadingList = true
    const kw = this.kw.trim()
    const res = await this.root.api.post('/api/route/getlist', { pageindex: page, pagesize: ROUTE_PAGE_SIZE, ...(kw ? { kw } : {}) })
    runInAction(() => {
      this.loadingList = false
      if (!res) return
      this.list = page === 1 ? res.list : [...this.list, ...res.list.filter((r) => !this.list.some((x) => x.id === r.id))]
      this.total = res.total
      this.page = page
    })
    return !!res
  }

  loadMore(): Promise<boolean> {
    return this.load(this.page + 1)
  }

  setKw(kw: string): void {
    this.kw = kw
  }

  search(kw: string): Promise<boolean> {
    this.kw = kw
    return this.load(1)
  }

  /** A saved route goes to the top of the list (replacing its old entry). */
  upsert(route: SavedRoute): void {
    const had = this.list.some((r) => r.id === route.id)
    this.list = [route, ...this.list.filter((r) => r.id !== route.id)]
    if (!had) this.total += 1
  }

  /** Deletes after the page's confirmation; the list drops it. */
  async remove(id: number): Promise<boolean> {
    const ok = await this.root.api.request('/api/route/delete', { id }).then(
      () => true,
      () => false,
    )
    if (!ok) return false
    runInAction(() => {
      const had = this.list.some((r) => r.id === id)
      this.list = this.list.filter((r) => r.id !== id)
      if (had) this.total = Math.max(0, this.total - 1)
    })
    this.root.app.notify(ROUTE_MSG.deleted, 'success')
    return true
  }

  /** Opens the share dialog for a route (share type 3: mask 172, route markers on). */
  share(route: Pick<SavedRoute, 'id' | 'name'>): void {
    this.root.app.requestShare({ type: 3, ids: [route.id], name: route.name })
  }

  reset(): void {
    this.list = []
    this.total = 0
    this.page = 0
    this.kw = ''
    this.draft.dispose()
    this.draft.startNew()
  }

  dispose(): void {
    this.draft.dispose()
  }
}
