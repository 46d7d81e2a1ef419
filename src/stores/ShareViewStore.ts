/**
 * The public share view (/share/view?id=): no login. Loads the share's meta, asks for the
 * password when needed (the proof from /api/share/check/pwd is kept on the phone until it lapses),
 * then the shared layers and markers, drawn through the same pipeline as the map page, with only
 * the controls the share's display mask allows.
 */
import { computed, makeAutoObservable, observable, runInAction } from 'mobx'
import type { Marker } from '../../types/mapdata'
import type { SharedLayer, ShareMeta } from '../../types/share'
import { ApiError, ERRCODE as ErrCode } from '../api/errors'
import { MARKER_PAGE_SIZE, SHARE_BTN } from '../domain/constants'
import { clusterTarget, dataTarget, type FitTarget } from '../domain/fit'
import type { ClusterItem, DrawList, MarkerIndex, Viewport } from '../domain/mapDraw'
import { MSG } from '../domain/messages'
import { SHARE_MSG } from '../domain/shareMessages'
import { hasShareFlag, shareForward } from '../domain/share'
import { routeAsLine } from '../domain/routes'
import type { RootStore } from './RootStore'

type Engine = typeof import('../domain/mapDraw')

export type ShareViewState = 'idle' | 'loading' | 'password' | 'ready' | 'expired' | 'missing' | 'failed'

const EMPTY_DRAW: DrawList = { clusters: [], points: [], shapes: [], heat: [], pointsInView: 0 }
const PROOF_KEY = (id: string) => `share_proof:${id}`
/** At most this many pages of 5000 (a share is a view, not an export). */
const MAX_PAGES = 40

export class ShareViewStore {
  id = ''
  state: ShareViewState = 'idle'
  meta: ShareMeta | null = null
  /** The message of a failed load or a wrong password. */
  error = ''
  layers: SharedLayer[] = []
  markers: Marker[] = []
  hiddenLayerIds: number[] = []
  titlesOn = false
  keyword = ''
  view: Viewport | null = null
  drawList: DrawList = EMPTY_DRAW
  selectedId: number | null = null
  target: { lng: number; lat: number; zoom: number; seq: number } | null = null
  checking = false
  private proof = ''
  private engine: Engine | null = null

  constructor(private readonly root: RootStore) {
    makeAutoObservable<ShareViewStore, 'root' | 'proof' | 'engine'>(this, {
      root: false,
      proof: false,
      engine: observable.ref,
      markers: observable.ref,
      drawList: observable.ref,
      index: computed({ keepAlive: true }),
    })
  }

  flag(flag: number): boolean {
    return !!this.meta && hasShareFlag(this.meta.show_btn, flag)
  }

  /** The markers drawn: shown layers, and the keyword when searching. */
  /** What forwarding this share in a chat (or posting it to Moments) carries: its name, its page, its card picture. */
  get forward(): ReturnType<typeof shareForward> {
    return shareForward(this.root.platform.share.webOrigin(), this.id, this.meta?.name)
  }

  get visibleMarkers(): Marker[] {
    const hidden = new Set(this.hiddenLayerIds)
    const kw = this.keyword.trim().toLowerCase()
    return this.markers.filter((m) => !hidden.has(m.layer_id) && (!kw || m.name.toLowerCase().includes(kw)))
  }

  get index(): MarkerIndex | null {
    return this.engine ? this.engine.buildMarkerIndex(this.visibleMarkers) : null
  }

  get selected(): Marker | null {
    return this.selectedId === null ? null : (this.markers.find((m) => m.id === this.selectedId) ?? null)
  }

  layerName(id: number): string {
    return this.layers.find((l) => l.id === id)?.name ?? ''
  }

  titleStyleOf = (layerId: number) => {
    const l = this.layers.find((x) => x.id === layerId)
    return l?.title_style ?? { font_size: 14, color: '#1D2129', bg_color: '#FFFFFF', padding: 2, border_weight: 1, border_color: '#165DFF' }
  }

  async open(id: string): Promise<void> {
    this.id = id
    this.error = ''
    this.meta = null
    this.layers = []
    this.markers = []
    this.selectedId = null
    if (!id) {
      this.state = 'missing'
      return
    }
    this.state = 'loading'
    const engine = import('../domain/mapDraw').then((e) => runInAction(() => (this.engine = e)))
    try {
      const meta = await this.root.api.request('/api/share/getbyid', { id }, { quiet: true })
      runInAction(() => {
        this.meta = meta
        this.titlesOn = hasShareFlag(meta.show_btn, SHARE_BTN.MARKER_TITLE)
      })
      // Moments has no password prompt a stranger would pass: only a public share is offered there.
      this.root.platform.share.allowTimeline(!meta.need_pwd && !meta.expired)
      this.proof = meta.need_pwd ? this.storedProof(id) : ''
      if (meta.need_pwd && !this.proof) {
        runInAction(() => (this.state = 'password'))
        return
      }
      await Promise.all([this.loadData(), engine])
    } catch (e) {
      this.fail(e)
    }
  }

  async checkPassword(pwd: string): Promise<boolean> {
    if (!pwd.trim()) {
      this.error = MSG.sharePwdRequired
      return false
    }
    this.checking = true
    try {
      const res = await this.root.api.request('/api/share/check/pwd', { id: this.id, pwd: pwd.trim() }, { quiet: true })
      this.proof = res.proof
      this.root.platform.storage.set(PROOF_KEY(this.id), JSON.stringify(res))
      runInAction(() => {
        this.error = ''
        this.state = 'loading'
      })
      await this.loadData()
      return true
    } catch (e) {
      runInAction(() => {
        this.error = e instanceof ApiError ? e.message : SHARE_MSG.pwdWrong
        if (e instanceof ApiError && e.errcode === ErrCode.EXPIRED) this.state = 'expired'
        if (e instanceof ApiError && e.errcode === ErrCode.NOT_FOUND) this.state = 'missing'
      })
      return false
    } finally {
      runInAction(() => (this.checking = false))
    }
  }

  /** Refresh (flag 8): fetch the shared data again. */
  async reload(): Promise<void> {
    try {
      await this.loadData()
    } catch (e) {
      this.fail(e)
    }
  }

  private async loadData(): Promise<void> {
    const proof = this.proof || undefined
    const layers = await this.root.api.request('/api/layer/get/share', { share_id: this.id, proof }, { quiet: true })
    const markers: Marker[] = []
    for (let page = 1; page <= MAX_PAGES; page++) {
      const res = await this.root.api.request('/api/marker/get/share', { share_id: this.id, pageindex: page, pagesize: MARKER_PAGE_SIZE, proof, format: 'columns' }, { quiet: true })
      markers.push(...res.list)
      if (res.list.length < MARKER_PAGE_SIZE) break
    }
    // A route share (type 3) draws its routes as lines through their stops, above the stop markers.
    if (this.meta?.type === 3) {
      const routes = await this.root.api.request('/api/route/get/share', { share_id: this.id, proof }, { quiet: true })
      for (const r of routes) {
        const line = routeAsLine(r)
        if (line) markers.push(line)
      }
    }
    if (!this.engine) {
      const e = await import('../domain/mapDraw')
      runInAction(() => (this.engine = e))
    }
    runInAction(() => {
      const firstLoad = this.state !== 'ready'
      this.layers = layers
      this.markers = markers
      this.state = 'ready'
      if (firstLoad) this.fit()
      this.redraw()
    })
  }

  private fail(e: unknown): void {
    runInAction(() => {
      const err = e instanceof ApiError ? e : null
      if (err?.errcode === ErrCode.NOT_FOUND) this.state = 'missing'
      else if (err?.errcode === ErrCode.EXPIRED) this.state = 'expired'
      else if (err?.errcode === ErrCode.FORBIDDEN && this.meta?.need_pwd) {
        // The stored proof lapsed: ask again.
        this.root.platform.storage.remove(PROOF_KEY(this.id))
        this.proof = ''
        this.state = 'password'
        return
      } else this.state = 'failed'
      this.error = err?.message ?? MSG.networkError
    })
  }

  private storedProof(id: string): string {
    try {
      const saved = JSON.parse(this.root.platform.storage.get(PROOF_KEY(id)) ?? 'null') as { proof: string; expires_at: string } | null
      if (saved && new Date(saved.expires_at).getTime() > Date.now()) return saved.proof
    } catch {
      // a damaged entry is as good as none
    }
    this.root.platform.storage.remove(PROOF_KEY(id))
    return ''
  }

  setView(view: Viewport): void {
    this.view = view
    this.redraw()
  }

  private redraw(): void {
    const index = this.index
    if (!this.view || !index || !this.engine) return
    const previous = new Set(this.drawList.points.map((m) => m.id))
    this.drawList = this.engine.computeDrawList(index, this.view, { previous })
  }

  setKeyword(kw: string): void {
    this.keyword = kw
    this.redraw()
  }

  toggleLayer(id: number): void {
    this.hiddenLayerIds = this.hiddenLayerIds.includes(id) ? this.hiddenLayerIds.filter((x) => x !== id) : [...this.hiddenLayerIds, id]
    this.redraw()
  }

  toggleTitles(): void {
    this.titlesOn = !this.titlesOn
  }

  select(id: number | null): void {
    this.selectedId = id
  }

  tapCluster(c: ClusterItem): void {
    this.goTo(clusterTarget(this.engine, this.index, c))
  }

  fit(): boolean {
    return this.goTo(dataTarget(this.engine, this.index))
  }

  private goTo(t: FitTarget | null): boolean {
    if (t) this.moveTo(t.lng, t.lat, t.zoom)
    return !!t
  }

  /** Another user or map: the viewer keeps nothing of a share it is not showing. */
  reset(): void {
    this.state = 'idle'
    this.meta = null
    this.layers = []
    this.markers = []
    this.selectedId = null
    this.drawList = EMPTY_DRAW
  }

  moveTo(lng: number, lat: number, zoom: number): void {
    this.target = { lng, lat, zoom, seq: (this.target?.seq ?? 0) + 1 }
  }
}
