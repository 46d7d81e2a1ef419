/**
 * The import dialog's view of one import in flight: the phase the server reports (polled while
 * the import call is pending) as a progress bar, and cancelling it while the server still can.
 * Made by the dialog for each import and dropped with it; not one of the root's stores.
 */
import { makeAutoObservable, runInAction } from 'mobx'
import type { ImportProgress } from '../../types/mapdata'
import { importShare } from '../domain/importProgress'
import { IMPORT_UI_MSG } from '../domain/importMessages'
import type { RootStore } from './RootStore'

/** Between two polls of the server. */
export const IMPORT_POLL_MS = 700

export class ImportWatch {
  /** What the server last said (null before its first answer, or when another server runs the import). */
  progress: ImportProgress | null = null
  /** The user asked to stop and the server took it. */
  cancelled = false
  private timer: unknown = null

  constructor(
    private readonly root: Pick<RootStore, 'api' | 'app' | 'scheduler'>,
    readonly importId: string,
  ) {
    makeAutoObservable<ImportWatch, 'timer' | 'root'>(this, { timer: false, root: false })
  }

  /** 0-100 for the bar, and the words under it. */
  get share(): number {
    return importShare(this.progress)
  }

  get text(): string {
    return IMPORT_UI_MSG.phase(this.progress)
  }

  /** Until writing starts the server can still stop: then the cancel button is offered. */
  get canCancel(): boolean {
    const phase = this.progress?.phase
    return !this.cancelled && phase !== 'writing' && phase !== 'done'
  }

  start(): void {
    this.schedule()
  }

  stop(): void {
    if (this.timer !== null) this.root.scheduler.clearTimeout(this.timer as never)
    this.timer = null
  }

  async cancel(): Promise<void> {
    const res = await this.root.api.post('/api/marker/import/cancel', { import_id: this.importId })
    if (!res) return
    runInAction(() => (this.cancelled = res.cancelled))
    if (!res.cancelled) this.root.app.notify(IMPORT_UI_MSG.tooLateToCancel, 'warning')
  }

  private schedule(): void {
    this.timer = this.root.scheduler.setTimeout(() => void this.poll(), IMPORT_POLL_MS)
  }

  private async poll(): Promise<void> {
    const res = await this.root.api.post('/api/marker/import/progress', { import_id: this.importId }, { background: true })
    if (this.timer === null) return
    runInAction(() => {
      if (res) this.progress = res
    })
    this.schedule()
  }
}
