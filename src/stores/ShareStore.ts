/**
 * Sharing (SPEC 2/4/5/9): the share dialog's form (kind, data, name, password, expiry,
 * display switches), saving it, the success dialog with the link, and the group's shares for
 * /share/management. The rules live in src/domain/share.ts; the server enforces them again.
 */
import { makeAutoObservable, runInAction } from 'mobx'
import type { Layer } from '../../types/mapdata'
import type { Share, ShareKind } from '../../types/share'
import { SHARE_BTN } from '../domain/constants'
import { TEAM_UI_MSG } from '../domain/messages'
import { shareableLayers } from '../domain/permissions'
import {
  checkShareForm,
  hasShareFlag,
  newShareForm,
  setShareExpSwitch,
  setSharePwdSwitch,
  shanghaiDate,
  shareExpPickerDate,
  shareForward,
  shareLink,
  withShareFlag,
  type ShareForm,
} from '../domain/share'
import { setCreatedShare } from './createdShare'
import type { RootStore } from './RootStore'

export const SHARE_PAGE_SIZE = 20

export class ShareStore {
  /** The open dialog's form, or null when closed. */
  form: ShareForm | null = null
  /** The layer picker of a layer share is open. */
  pickingLayers = false
  saving = false
  /** The link of the share just created (the success dialog). */
  createdLink: string | null = null

  list: Share[] = []
  total = 0
  page = 0
  /** Management: only mine, or the whole group's (managers). */
  scope: 'mine' | 'all' = 'mine'
  loadingList = false

  constructor(private readonly root: RootStore) {
    makeAutoObservable<ShareStore, 'root'>(this, { root: false })
  }

  /** SPEC 2/6: type 1 (point, line or area) layers the user may share; the server computed the effective permission. */
  get shareableLayers(): Layer[] {
    return shareableLayers(this.root.layers.layers)
  }

  get isManager(): boolean {
    return this.root.session.is_admin || !!this.root.session.user?.is_manager
  }

  /** Opens the dialog for a kind, with data already chosen (a marker, a layer) or none (pick layers). */
  open(type: ShareKind, dataIds: number[] = [], dataName?: string): void {
    this.form = newShareForm(type, dataIds, dataName)
    this.createdLink = null
  }

  close(): void {
    this.form = null
    this.pickingLayers = false
  }

  setName(name: string): void {
    if (this.form) this.form = { ...this.form, name }
  }

  setPwdSwitch(on: boolean): void {
    if (this.form) this.form = setSharePwdSwitch(this.form, on)
  }

  setPwd(pwd: string): void {
    if (this.form) this.form = { ...this.form, pwd }
  }

  setExpSwitch(on: boolean): void {
    if (this.form) this.form = setShareExpSwitch(this.form, on)
  }

  /** Where the expiry picker opens: the chosen date, else a week from today (never before today, SPEC 5). */
  expPickerDate(now: Date = new Date()): string {
    return shareExpPickerDate(this.form?.exp ?? '', now)
  }

  /** A date from the picker; cancelling the picker clears it (SPEC 5). */
  setExp(date: string | null): void {
    if (!this.form) return
    this.form = date ? { ...this.form, exp: date } : { ...this.form, exp: '' }
  }

  setFlag(flag: number, on: boolean): void {
    if (this.form) this.form = { ...this.form, show_btn: withShareFlag(this.form.show_btn, flag, on) }
  }

  flagOn(flag: number): boolean {
    return !!this.form && hasShareFlag(this.form.show_btn, flag)
  }

  openLayerPicker(): void {
    this.pickingLayers = true
  }

  closeLayerPicker(): void {
    this.pickingLayers = false
  }

  /** The layer picker's answer: only type 1+ layers count as data (folders only group them). */
  pickLayers(ids: readonly (number | string)[]): void {
    this.pickingLayers = false
    if (!this.form) return
    const shareable = new Set(this.shareableLayers.map((l) => l.id))
    const dataIds = ids.map(Number).filter((id) => shareable.has(id))
    const onlyOne = dataIds.length === 1 ? this.root.layers.byId.get(dataIds[0])?.name : undefined
    const wasDefault = this.form.name === newShareForm(this.form.type, this.form.data_ids, this.dataNameOf(this.form.data_ids)).name
    this.form = { ...this.form, data_ids: dataIds, name: wasDefault ? newShareForm(this.form.type, dataIds, onlyOne).name : this.form.name }
  }

  private dataNameOf(ids: number[]): string | undefined {
    return ids.length === 1 ? this.root.layers.byId.get(ids[0])?.name : undefined
  }

  /** Validates (SPEC 5), saves, shows the link; the form then resets. */
  async submit(): Promise<boolean> {
    const form = this.form
    if (!form || this.saving) return false
    const today = shanghaiDate(new Date())
    const problem = checkShareForm(form, today)
    if (problem) {
      this.root.app.notifyInvalid(problem, () => !!this.form && checkShareForm(this.form, today) === problem)
      return false
    }
    this.saving = true
    const withStyle = hasShareFlag(form.show_btn, SHARE_BTN.MAP_STYLE)
    const id = await this.root.api.post('/api/share/save', {
      name: form.name.trim(),
      show_btn: form.show_btn,
      need_pwd: form.need_pwd,
      pwd: form.need_pwd ? form.pwd.trim() : undefined,
      exp: form.use_exp ? form.exp : null,
      data_ids: form.data_ids,
      type: form.type,
      style: withStyle ? { ...this.root.app.map_style } : null,
    })
    runInAction(() => {
      this.saving = false
      if (!id) return
      this.createdLink = shareLink(this.root.platform.share.webOrigin(), id)
      setCreatedShare(shareForward(this.root.platform.share.webOrigin(), id, form.name.trim()))
      // SPEC 2: on success the dialog shows the link; the form then resets.
      this.form = null
    })
    return !!id
  }

  async copy(link: string): Promise<boolean> {
    const ok = await this.root.platform.share.copyText(link)
    this.root.app.notify(ok ? TEAM_UI_MSG.copied : TEAM_UI_MSG.copyFailed, ok ? 'success' : 'danger')
    return ok
  }

  dismissCreated(): void {
    this.createdLink = null
    setCreatedShare(null)
  }

  linkOf(share: Pick<Share, 'id'>): string {
    return shareLink(this.root.platform.share.webOrigin(), share.id)
  }

  // ---- management ----------------------------------------------------------------------------

  get hasMore(): boolean {
    return this.list.length < this.total
  }

  setScope(scope: 'mine' | 'all'): Promise<boolean> {
    this.scope = scope
    return this.load(1)
  }

  async load(page = 1): Promise<boolean> {
    this.loadingList = true
    const mine = this.scope === 'mine' || !this.isManager
    const res = await this.root.api.post('/api/share/getlist/group', { pageindex: page, pagesize: SHARE_PAGE_SIZE, ...(mine ? { op_userid: this.root.session.user?.id } : {}) })
    runInAction(() => {
      this.loadingList = false
      if (!res) return
      this.list = page === 1 ? res.list : [...this.list, ...res.list]
      this.total = res.total
      this.page = page
    })
    return !!res
  }

  loadMore(): Promise<boolean> {
    return this.load(this.page + 1)
  }

  async remove(id: string): Promise<boolean> {
    const ok = await this.root.api.request('/api/share/delete', { id }).then(
      () => true,
      () => false,
    )
    if (!ok) return false
    runInAction(() => {
      this.list = this.list.filter((s) => s.id !== id)
      this.total = Math.max(0, this.total - 1)
    })
    this.root.app.notify(TEAM_UI_MSG.removed, 'success')
    return true
  }

  reset(): void {
    this.close()
    this.createdLink = null
    setCreatedShare(null)
    this.list = []
    this.total = 0
    this.page = 0
  }
}
