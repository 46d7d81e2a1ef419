/**
 * The signed-in user (SPEC 4 "Session"): login stores the user locally, encrypted; a login failure
 * clears it; logout clears the user, the map and the map data; an HTTP 401 logs out and goes to login.
 */
import { makeAutoObservable, runInAction } from 'mobx'
import type { RequestHeader } from '../../types/api'
import type { LoginResult, UserInfo } from '../../types/entities'
import { SMS_RESEND_COOLDOWN_S } from '../domain/constants'
import { APP_MSG } from '../domain/appMessages'
import { PATHS } from '../domain/guard'
import { MSG, TEAM_UI_MSG } from '../domain/messages'
import { decryptJson, encryptJson } from '../domain/secure'
import { nextTask } from '../platform/tasks/nextTask'
import { isOwnFileUrl } from '../domain/fileUrl'
import { FILE_URL_MSG } from '../domain/systemMessages'
import { parseInviteCode } from '../domain/invite'
import { checkCode, checkGroupName, checkNickname, checkPhone } from '../domain/validate'
import type { RootStore } from './RootStore'
import { offlineUserPrefix } from '../domain/offlineKeys'
import { CLEARED_ON_LOGOUT, STORAGE_KEYS } from './storageKeys'

interface StoredSession {
  user: UserInfo
  is_admin: boolean
  admin_vip_expired: boolean
}

export class SessionStore {
  user: UserInfo | null = null
  is_admin = false
  admin_vip_expired = false
  /** Seconds until the server takes another code request: its cooldown (send/code's answer, or the seconds its refusal names). */
  codeCountdown = 0
  sendingCode = false
  submitting = false
  private countdownTimer: ReturnType<typeof setInterval> | null = null

  constructor(private readonly root: RootStore) {
    makeAutoObservable<SessionStore, 'root' | 'countdownTimer'>(this, { root: false, countdownTimer: false })
    this.restore()
  }

  get loggedIn(): boolean {
    return !!this.user?.id
  }

  /**
   * A code was sent and its cooldown runs: computed, so what shows only this (the sign-in page's
   * warming of the page it opens) is told of its start and end, not of every second's tick.
   */
  get codeSent(): boolean {
    return this.codeCountdown > 0
  }

  get hasGroup(): boolean {
    return !!this.user?.select_groupid
  }

  /** The header object every call carries (SPEC 7). */
  get header(): RequestHeader {
    const device = this.root.platform.device
    return {
      userid: this.user?.id ?? '',
      groupid: this.user?.select_groupid || '',
      token: this.user?.token ?? '',
      device: device.header(),
      os: device.os(),
    }
  }

  restore(): void {
    const stored = decryptJson<StoredSession>(this.root.platform.storage.get(STORAGE_KEYS.userInfo))
    if (stored?.user?.id && stored.user.token) this.apply(stored)
    else this.root.platform.storage.remove(STORAGE_KEYS.userInfo)
  }

  async sendCode(phone: string): Promise<boolean> {
    if (this.codeCountdown > 0 || this.sendingCode) return false
    if (this.rejected(checkPhone(phone))) return false
    this.sendingCode = true
    // Seconds to count down; negative when the server refused to send.
    let wait = 0
    try {
      wait = (await this.root.api.request('/api/system/send/code', { phone: phone.trim() })).cooldown || SMS_RESEND_COOLDOWN_S
      this.root.app.notify(MSG.codeSent, 'success')
    } catch (e) {
      // Refused as too frequent (a reload lost the countdown): the message names the seconds left.
      wait = -(/(\d+)秒后再试/.exec((e as Error).message)?.[1] ?? 0)
    }
    runInAction(() => {
      this.sendingCode = false
    })
    if (wait) this.startCountdown(Math.abs(wait))
    return wait > 0
  }

  /**
   * Signs in; `channel` (an invitation's ?channel=, e.g. 'dist_<code>') is what the server records
   * on a first sign-in, else this client's device kind.
   */
  async login(phone: string, code: string, channel?: string): Promise<boolean> {
    if (this.rejected(checkPhone(phone) ?? checkCode(code))) return false
    if (this.submitting) return false
    this.submitting = true
    const invited = (channel ?? '').trim()
    // The server takes channels of up to 64 characters; a longer one is not an invitation of ours.
    const sent = invited && invited.length <= 64 ? invited : this.root.platform.device.header()
    const res = await this.root.api.post('/api/user/login', { phone: phone.trim(), code: code.trim(), channel: sent })
    runInAction(() => {
      this.submitting = false
      if (res) {
        this.root.app.clearNotices()
        this.apply(res)
      } else {
        this.clearUser()
      }
    })
    // Written in a task after the sign-in's own: its encryption and what the new user sets off,
    // in one task, held a slow phone for a tenth of a second.
    if (res) {
      await nextTask()
      if (this.user?.id === res.user.id) this.persist()
    }
    return !!res
  }

  /** Reloads user info from the server (after group changes, payment ...). */
  async refresh(): Promise<boolean> {
    if (!this.loggedIn) return false
    const res = await this.root.api.post('/api/user/getinfo', {})
    if (!res) return false
    runInAction(() => {
      this.applyAccount(res)
    })
    return true
  }

  /** Takes user info fetched elsewhere (the group refresh poll). */
  adopt(res: LoginResult): void {
    this.applyAccount(res)
  }

  /** Selects another group the user belongs to. */
  async switchGroup(groupId: number): Promise<boolean> {
    const res = await this.root.api.post('/api/group/select', { group_id: groupId })
    if (!res) return false
    runInAction(() => {
      this.applyAccount(res)
      this.root.app.notify(TEAM_UI_MSG.switched(res.user.select_groupname), 'success')
    })
    return true
  }

  /** Leaves the selected (shared) map; the server switches the user to their own map. */
  async quitGroup(): Promise<boolean> {
    const res = await this.root.api.post('/api/group/quit', {})
    if (!res) return false
    runInAction(() => {
      this.applyAccount(res)
      this.root.app.notify(TEAM_UI_MSG.switched(res.user.select_groupname), 'success')
    })
    return true
  }

  /**
   * Switches to the user's own map (made on first use) while staying a member of the shared one:
   * a member of an expired team goes on working there (SPEC 4) and comes back once it renews.
   */
  async openOwnMap(): Promise<boolean> {
    const res = await this.root.api.post('/api/group/create', {})
    if (!res) return false
    runInAction(() => {
      this.applyAccount(res)
      this.root.app.notify(TEAM_UI_MSG.switched(res.user.select_groupname), 'success')
    })
    this.root.navigate(PATHS.map, 'relaunch')
    return true
  }

  /** Guide: the user with no group creates their own map (a 7-day trial). */
  async createOwnGroup(): Promise<boolean> {
    const res = await this.root.api.post('/api/group/create', {})
    if (!res) return false
    runInAction(() => {
      this.root.app.clearNotices()
      this.applyAccount(res)
    })
    return true
  }

  async joinTeam(code: string): Promise<boolean> {
    const c = parseInviteCode(code)
    if (this.rejected(c ? null : MSG.inviteCodeRequired)) return false
    const res = await this.root.api.post('/api/group/join', { code: c })
    if (!res) return false
    runInAction(() => {
      this.root.app.clearNotices()
      this.applyAccount(res)
    })
    return true
  }

  async initNickname(nickname: string): Promise<boolean> {
    if (this.rejected(checkNickname(nickname))) return false
    const user = await this.root.api.post('/api/user/init', { nickname: nickname.trim() })
    if (!user) return false
    this.root.app.clearNotices()
    this.updateUser(user)
    return true
  }

  /**
   * My info: saves the nickname and/or avatar through /api/user/save. A nickname is checked
   * first (nothing is sent when it is wrong); the answer is the saved user, which becomes the session's.
   */
  async saveProfile(patch: { nickname?: string; avatar?: string }): Promise<boolean> {
    if (!this.loggedIn) return false
    if (patch.nickname !== undefined && this.rejected(checkNickname(patch.nickname))) return false
    // The server takes only its own uploads; saying so here spares a call that cannot succeed.
    const avatar = patch.avatar?.trim()
    if (avatar && this.rejected(isOwnFileUrl(avatar) ? null : FILE_URL_MSG.avatar)) return false
    const body: { nickname?: string; avatar?: string } = {}
    if (patch.nickname !== undefined) body.nickname = patch.nickname.trim()
    if (patch.avatar !== undefined) body.avatar = patch.avatar.trim()
    if (body.nickname === undefined && body.avatar === undefined) return false
    const user = await this.root.api.post('/api/user/save', body)
    if (!user) return false
    this.root.app.clearNotices()
    this.updateUser(user)
    this.root.app.notify(APP_MSG.profileSaved, 'success')
    return true
  }

  async saveGroupName(name: string): Promise<boolean> {
    if (this.rejected(checkGroupName(name))) return false
    const group = await this.root.api.post('/api/group/save/name', { name: name.trim() })
    if (!group) return false
    runInAction(() => {
      if (this.user) this.user = { ...this.user, select_groupname: group.name }
      this.persist()
    })
    return true
  }

  /** Logs out: revokes the token on the server (best effort), clears local data, goes to login. */
  async logout(): Promise<void> {
    if (this.loggedIn) {
      try {
        await this.root.api.request('/api/user/logout', {}, { quiet: true })
      } catch {
        // the local logout happens regardless
      }
    }
    // What waited in the outbox goes with the rest of the user's local data (the logout button warned first).
    await this.root.outboxSink?.forget()
    this.clearLocal()
    this.root.navigate(PATHS.login, 'relaunch')
  }

  /** Deletes the account on the server, then logs out locally. */
  async logoff(): Promise<boolean> {
    const res = await this.root.api.request('/api/user/logoff', {}).then(
      () => true,
      () => false,
    )
    if (!res) return false
    this.root.app.notify(MSG.accountDeleted, 'success')
    this.clearLocal()
    this.root.navigate(PATHS.login, 'relaunch')
    return true
  }

  /** HTTP 401 from any call: the client already showed the SPEC warning. */
  handleUnauthorized(): void {
    this.clearLocal()
    this.root.navigate(PATHS.login, 'relaunch')
  }

  /** Takes a fresh account from the server; calls after login answer without the token. */
  private applyAccount(res: LoginResult): void {
    this.apply({ ...res, user: { ...res.user, token: res.user.token || this.user?.token || '' } })
    this.persist()
  }

  /** Shows a validation message; returns true when there was one. */
  private rejected(message: string | null): boolean {
    if (message) this.root.app.notify(message, 'warning')
    return !!message
  }

  private updateUser(user: UserInfo): void {
    this.user = { ...user, token: user.token || this.user?.token || '' }
    this.persist()
  }

  private apply(res: LoginResult | StoredSession): void {
    this.user = res.user
    this.is_admin = !!res.is_admin
    this.admin_vip_expired = !!res.admin_vip_expired
  }

  private persist(): void {
    if (!this.user) return
    const stored: StoredSession = { user: this.user, is_admin: this.is_admin, admin_vip_expired: this.admin_vip_expired }
    this.root.platform.storage.set(STORAGE_KEYS.userInfo, encryptJson(stored))
  }

  private clearUser(): void {
    this.user = null
    this.is_admin = false
    this.admin_vip_expired = false
    this.root.platform.storage.remove(STORAGE_KEYS.userInfo)
  }

  /** Clears the user, the map state and every map-data key (SPEC 4). */
  private clearLocal(): void {
    const userId = this.user?.id
    this.clearUser()
    if (userId !== undefined) this.clearOffline(userId)
    for (const key of CLEARED_ON_LOGOUT) this.root.platform.storage.remove(key)
    this.root.app.resetMap()
  }

  /**
   * Forgets the map data this user's phone kept for working without signal (SPEC 4: logout clears the
   * map data). The outbox keeps its own keys: its store decides about unsent work.
   */
  private clearOffline(userId: number): void {
    const prefix = offlineUserPrefix(userId)
    this.root.platform.offline().then(
      ({ storage: s }) => s.keys().then((keys) => keys.forEach((k) => k.startsWith(prefix) && s.remove(k))),
      () => undefined,
    )
  }

  /** Counts to a moment, not timer ticks: a page in the background (reading the SMS) gets no ticks. */
  private startCountdown(seconds: number): void {
    this.stopCountdown()
    const end = Date.now() + seconds * 1000
    const tick = () => {
      this.codeCountdown = Math.max(0, Math.ceil((end - Date.now()) / 1000))
      if (!this.codeCountdown) this.stopCountdown()
    }
    tick()
    this.countdownTimer = setInterval(() => runInAction(tick), 1000)
  }

  private stopCountdown(): void {
    if (this.countdownTimer) clearInterval(this.countdownTimer)
    this.countdownTimer = null
  }

  dispose(): void {
    this.stopCountdown()
  }
}
