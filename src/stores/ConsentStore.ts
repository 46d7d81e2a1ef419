/**
 * What the signed-in person consents to about themself: the teams' invitations waiting for their
 * answer (asked once per sign-in or app start, and listed under 我的), and the devices signed in
 * to their account (settings), with 退出其他设备.
 */
import { makeAutoObservable, runInAction } from 'mobx'
import type { Invitation, SignedInDevice } from '../../types/invitations'
import { DEVICES_MSG, INVITE_MSG } from '../domain/consentMessages'
import { PATHS } from '../domain/guard'
import type { RootStore } from './RootStore'

export class ConsentStore {
  invitations: Invitation[] = []
  /** The invitations were read for this sign-in (or this start of the app). */
  invitationsLoaded = false
  /** 稍后再说: the dialog does not ask again until the next sign-in or start; 我的 still lists them. */
  postponed = false
  answering = false
  devices: SignedInDevice[] = []
  devicesLoaded = false
  signingOut = false

  constructor(private readonly root: RootStore) {
    makeAutoObservable<ConsentStore, 'root'>(this, { root: false })
  }

  /** The invitation the dialog asks about now, if any. */
  get asking(): Invitation | null {
    return this.postponed ? null : (this.invitations[0] ?? null)
  }

  /** Reads the invitations once per sign-in or start (pages call it on entry); `again` reads anyway (我的). */
  async loadInvitations(again = false): Promise<void> {
    if (!this.root.session.loggedIn || (this.invitationsLoaded && !again)) return
    this.invitationsLoaded = true
    const res = await this.root.api.post('/api/user/invite/getlist', {}, { background: true })
    runInAction(() => {
      if (res) this.invitations = res.list
    })
  }

  async accept(invitation: Invitation): Promise<boolean> {
    if (this.answering) return false
    this.answering = true
    const res = await this.root.api.post('/api/user/invite/accept', { id: invitation.id })
    runInAction(() => {
      this.answering = false
      this.invitations = this.invitations.filter((i) => i.id !== invitation.id)
    })
    if (!res) return false
    this.root.session.adopt(res)
    this.root.app.notify(INVITE_MSG.accepted(invitation.group_name), 'success')
    // The team's map: a user finishing the set-up (guide) goes there too, or to set a nickname first.
    this.root.navigate(PATHS.map, 'relaunch')
    return true
  }

  async decline(invitation: Invitation): Promise<boolean> {
    if (this.answering) return false
    this.answering = true
    const res = await this.root.api.post('/api/user/invite/decline', { id: invitation.id })
    runInAction(() => {
      this.answering = false
      // Gone either way: declined now, or no longer there to decline.
      this.invitations = this.invitations.filter((i) => i.id !== invitation.id)
    })
    if (res === undefined) return false
    this.root.app.notify(INVITE_MSG.declined, 'success')
    return true
  }

  later(): void {
    this.postponed = true
  }

  async loadDevices(): Promise<void> {
    const res = await this.root.api.post('/api/user/session/getlist', {})
    runInAction(() => {
      if (res) this.devices = res.list
      this.devicesLoaded = true
    })
  }

  /** 退出其他设备: every other session of the account ends (their sockets close within seconds). */
  async signOutOthers(): Promise<boolean> {
    if (this.signingOut) return false
    this.signingOut = true
    const res = await this.root.api.post('/api/user/session/revoke/others', {})
    runInAction(() => {
      this.signingOut = false
    })
    if (!res) return false
    this.root.app.notify(DEVICES_MSG.done(res.revoked), 'success')
    await this.loadDevices()
    return true
  }

  /** Another user (or none): nothing of the previous one's stays. */
  reset(): void {
    this.invitations = []
    this.invitationsLoaded = false
    this.postponed = false
    this.devices = []
    this.devicesLoaded = false
  }
}
