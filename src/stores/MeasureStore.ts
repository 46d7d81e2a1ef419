/**
 * 测距 / 测面积 on the map (every tier): while active, the map's taps are measure points (the map
 * store hands them here) instead of opening markers; the bar reads the figure as points come, with
 * undo and clear. Nothing is saved and no marker is made: the points live here until the bar closes.
 */
import { makeAutoObservable, observable } from 'mobx'
import { MEASURE_MSG } from '../domain/measureMessages'
import { addMeasurePoint, emptyMeasure, measureDraft, measureReadout, switchMeasureMode, undoMeasurePoint, type MeasureMode, type MeasureReadout, type MeasureState } from '../domain/measure'
import type { LngLat } from '../domain/geo'
import type { RootStore } from './RootStore'

export class MeasureStore {
  /** The measure under way, or null when the map is not measuring. */
  state: MeasureState | null = null

  constructor(private readonly root: RootStore) {
    makeAutoObservable<MeasureStore, 'root'>(this, { root: false, state: observable.ref })
  }

  get active(): boolean {
    return this.state !== null
  }

  get mode(): MeasureMode | null {
    return this.state?.mode ?? null
  }

  get pointCount(): number {
    return this.state?.points.length ?? 0
  }

  /** The bar's figure, detail and hint, areas in the settings' unit. */
  get readout(): MeasureReadout | null {
    return this.state ? measureReadout(this.state, this.root.app.area_unit) : null
  }

  /** What the map draws: the measured line or area with a dot per point. */
  get draft(): ReturnType<typeof measureDraft> {
    return this.state ? measureDraft(this.state) : null
  }

  /**
   * Starts measuring (or switches the mode of the measure under way, keeping its points); false while
   * a marker is being drawn with vertices placed or being moved (the user is told: measuring would
   * throw that work away). A drawing not begun is left.
   */
  start(mode: MeasureMode): boolean {
    if (this.state) {
      this.state = switchMeasureMode(this.state, mode)
      return true
    }
    const map = this.root.map
    if (map.editing || map.vertexCount > 0) {
      this.root.app.notify(MEASURE_MSG.busyDrawing, 'warning')
      return false
    }
    if (map.drawing) map.cancelDrawing()
    this.root.markers.closeDetail()
    this.state = emptyMeasure(mode)
    return true
  }

  add(p: LngLat): void {
    if (this.state) this.state = addMeasurePoint(this.state, p)
  }

  undo(): void {
    if (this.state) this.state = undoMeasurePoint(this.state)
  }

  clear(): void {
    if (this.state) this.state = emptyMeasure(this.state.mode)
  }

  /** Closes the bar; the points go with it. */
  stop(): void {
    this.state = null
  }
}
