/**
 * The team (SPEC 1/3/6/7): members of the selected group with their departments and roles,
 * people pre-registered by phone, the invite code and link, the groups the user belongs to.
 * Switching and quitting change the session and live in SessionStore.
 */
import { makeAutoObservable, runInAction } from 'mobx'
import type { GroupSummary, JoinsOverview, Member, PersonOverview } from '../../types/teams'
import { TEAM_UI_MSG } from '../domain/messages'
import { hasRoomForCollaborator } from '../domain/collaborators'
import { inviteLink } from '../domain/teamRules'
import { checkNickname, checkPhone } from '../domain/validate'
import type { RootStore } from './RootStore'

/** What the add-by-phone form shows about the phone typed in: its user, or why there is none to show. */
export interface PhoneOwner {
  phone: string
  /** null: no user has this phone (they join on first sign-in), or the lookup was refused. */
  person: PersonOverview | null
  /** The server's words when there is no person: not registered yet, or too many lookups. */
  message: string
}

export class TeamStore {
  overview: JoinsOverview | null = null
  groups: GroupSummary[] = []
  inviteCode: string | null = null
  loading = false
  phoneOwner: PhoneOwner | null = null
  /** The phone of the latest lookup: an answer for an older one is dropped. */
  private lookingUp = ''

  constructor(private readonly root: RootStore) {
    makeAutoObservable<TeamStore, 'root' | 'lookingUp'>(this, { root: false, lookingUp: false })
  }

  get members(): Member[] {
    return this.overview?.list ?? []
  }

  get pending() {
    return this.overview?.pending ?? []
  }

  /** Managing the team (members, departments, roles, invites): the administrator and managers. */
  get canManage(): boolean {
    return this.root.session.is_admin || !!this.root.session.user?.is_manager
  }

  /** Setting managers and removing a manager: the administrator only. */
  get isAdmin(): boolean {
    return this.root.session.is_admin
  }

  /** "3/5": collaborators (the administrator not counted, pending pre-registrations counted) against the collaborator limit. */
  get countLabel(): string {
    const o = this.overview
    return o ? `${o.count}/${o.join_limit}` : ''
  }

  /** No room for one more collaborator: inviting and adding by phone would be refused. */
  get full(): boolean {
    const o = this.overview
    return !!o && !hasRoomForCollaborator(o.count, o.join_limit)
  }

  get inviteLink(): string {
    return this.inviteCode ? inviteLink(this.root.platform.share.webOrigin(), this.inviteCode) : ''
  }

  memberByUserId(userId: number): Member | undefined {
    return this.members.find((m) => m.user.id === userId)
  }

  memberName(userId: number): string {
    return this.memberByUserId(userId)?.user.nickname || '成员'
  }

  async load(): Promise<boolean> {
    this.loading = true
    const res = await this.root.api.post('/api/group/get/joins', {})
    runInAction(() => {
      this.loading = false
      if (res) this.overview = res
    })
    return !!res
  }

  async loadGroups(): Promise<boolean> {
    const res = await this.root.api.post('/api/group/getlist', {})
    if (res) runInAction(() => (this.groups = res))
    return !!res
  }

  async loadInviteCode(reset = false): Promise<string | null> {
    const res = await this.root.api.post('/api/group/invite/code', reset ? { reset: true } : {})
    if (res) runInAction(() => (this.inviteCode = res.code))
    return res?.code ?? null
  }

  async copyInvite(): Promise<boolean> {
    const code = this.inviteCode ?? (await this.loadInviteCode())
    if (!code) return false
    const ok = await this.root.platform.share.copyText(`邀请您加入团队「${this.root.session.user?.select_groupname ?? ''}」：${this.inviteLink}（邀请码 ${code}）`)
    this.root.app.notify(ok ? TEAM_UI_MSG.copied : TEAM_UI_MSG.copyFailed, ok ? 'success' : 'danger')
    return ok
  }

  /** Adds a person by phone: an existing user joins at once, a new one on first sign-in. */
  async preRegister(input: { nickname: string; phone: string; department_id: number }): Promise<boolean> {
    const problem = (input.nickname.trim() ? checkNickname(input.nickname) : TEAM_UI_MSG.nicknameRequired) ?? checkPhone(input.phone)
    if (problem) {
      this.root.app.notify(problem, 'warning')
      return false
    }
    const res = await this.root.api.post('/api/user/pre/register', { nickname: input.nickname.trim(), phone: input.phone.trim(), department_id: input.department_id })
    if (!res) return false
    this.clearPhoneOwner()
    this.root.app.notify(res.joined ? TEAM_UI_MSG.joinedAtOnce : TEAM_UI_MSG.inviteSent, 'success')
    await this.load()
    return true
  }

  /**
   * Shows who a phone belongs to before they are added (nickname, avatar, masked phone, already a
   * member). Only a complete valid number is looked up; anything else clears what was shown.
   */
  async lookUpPhone(phone: string): Promise<PersonOverview | null> {
    const p = phone.trim()
    if (checkPhone(p)) {
      this.clearPhoneOwner()
      return null
    }
    if (this.phoneOwner?.phone === p) return this.phoneOwner.person
    this.lookingUp = p
    // Quiet: "not registered" is an answer the form shows, not an error notice.
    const found = await this.root.api.request('/api/user/get/overview/phoneuid', { phone: p }, { quiet: true }).then(
      (person) => ({ person, message: '' }),
      (err: unknown) => ({ person: null, message: err instanceof Error ? err.message : '' }),
    )
    if (this.lookingUp !== p) return null
    runInAction(() => (this.phoneOwner = { phone: p, ...found }))
    return found.person
  }

  clearPhoneOwner(): void {
    this.lookingUp = ''
    this.phoneOwner = null
  }

  async withdrawPending(id: number): Promise<boolean> {
    const res = await this.root.api.request('/api/user/pre/delete', { id }).then(
      () => true,
      () => false,
    )
    if (res) await this.load()
    return res
  }

  async remove(member: Member): Promise<boolean> {
    const ok = await this.root.api.request('/api/group/remove/join', { join_id: member.join_id }).then(
      () => true,
      () => false,
    )
    if (!ok) return false
    this.root.app.notify(TEAM_UI_MSG.removed, 'success')
    await this.load()
    return true
  }

  async setManager(member: Member, isManager: boolean): Promise<boolean> {
    const res = await this.root.api.post('/api/group/join/setting/manager', { join_id: member.join_id, is_manager: isManager })
    if (res) runInAction(() => this.replace(res))
    return !!res
  }

  async setDepartment(member: Member, departmentId: number): Promise<boolean> {
    const res = await this.root.api.post('/api/group/setting/join', { join_id: member.join_id, department_id: departmentId })
    if (res) runInAction(() => this.replace(res))
    return !!res
  }

  private replace(member: Member): void {
    if (!this.overview) return
    this.overview = { ...this.overview, list: this.overview.list.map((m) => (m.join_id === member.join_id ? member : m)) }
  }

  reset(): void {
    this.overview = null
    this.groups = []
    this.inviteCode = null
    this.clearPhoneOwner()
  }
}
