/**
 * Distribution (types/distribution.ts): /reg registers a promoter (name, phone confirmed by
 * an SMS code from the session's code sender, optional company) and /distribution/view?code= shows
 * the promotion page: who invites, the invitation link (QR code, copy, 立即使用), the download page,
 * and how many signed up through it and paid. Both public.
 */
import { makeAutoObservable, runInAction } from 'mobx'
import type { DistributionView } from '../../types/distribution'
import { ApiError, ERRCODE } from '../api/errors'
import { DOWNLOAD_PATH, checkRegistration, distributionViewPath, inviteUrl, isDistributionCode, normalizeDistributionCode, type RegistrationInput } from '../domain/distribution'
import { DIST_MSG } from '../domain/distributionMessages'
import type { RootStore } from './RootStore'
import { STORAGE_KEYS } from './storageKeys'

/** idle: nothing asked; missing: no code in the address; invalid: nobody holds the code; failed: could not load. */
export type DistributionState = 'idle' | 'loading' | 'ready' | 'missing' | 'invalid' | 'failed'

export class DistributionStore {
  view: DistributionView | null = null
  state: DistributionState = 'idle'
  /** Why the page could not load (network, server). */
  error = ''
  registering = false
  /** The codes this device registered: the promoter's own pages. */
  ownCodes: string[] = []
  private code = ''

  constructor(private readonly root: RootStore) {
    makeAutoObservable<DistributionStore, 'root' | 'code'>(this, { root: false, code: false })
    this.ownCodes = readCodes(root.platform.storage.get(STORAGE_KEYS.promoterCodes))
  }

  /**
   * Whether the page shown is the promoter's own (registered on this device): they see their
   * figures and a way into the app; anyone else sees the invitation (who invites, 立即使用).
   */
  get isOwn(): boolean {
    return !!this.view && this.ownCodes.includes(this.view.code)
  }

  /** The absolute invitation link (QR code, copy button). */
  get inviteLink(): string {
    return this.view ? inviteUrl(this.root.platform.share.webOrigin(), this.view.invite_path) : ''
  }

  /** The app download page on the API server (GET /download). */
  get downloadLink(): string {
    return inviteUrl(this.root.platform.share.webOrigin(), DOWNLOAD_PATH)
  }

  /** Registers (or finds again) the phone's promoter; the promotion page's path on success, else null. */
  async register(input: RegistrationInput): Promise<string | null> {
    if (this.registering) return null
    const problem = checkRegistration(input)
    if (problem) {
      this.root.app.notify(problem, 'danger')
      return null
    }
    this.registering = true
    const res = await this.root.api.post('/api/user/distribution/register', {
      name: input.name.trim(),
      phone: input.phone.trim(),
      code: input.code.trim(),
      company: (input.company ?? '').trim(),
    })
    runInAction(() => {
      this.registering = false
      if (!res) return
      this.rememberOwn(res.code)
      this.show(res)
    })
    if (!res) return null
    this.root.app.notify(DIST_MSG.registered, 'success')
    return distributionViewPath(res.code)
  }

  /** Loads the promotion page of the code in the address (again: the counts move). */
  async open(rawCode: string | undefined): Promise<void> {
    const code = normalizeDistributionCode(rawCode)
    this.code = code
    this.error = ''
    if (!code) {
      this.view = null
      this.state = 'missing'
      return
    }
    if (!isDistributionCode(code)) {
      this.view = null
      this.state = 'invalid'
      return
    }
    // A page already showing this code stays while its counts refresh.
    if (this.view?.code !== code) {
      this.view = null
      this.state = 'loading'
    }
    try {
      const res = await this.root.api.request('/api/user/distribution/view', { code }, { quiet: true })
      runInAction(() => {
        if (this.code === code) this.show(res)
      })
    } catch (e) {
      runInAction(() => {
        if (this.code !== code) return
        this.view = null
        if (e instanceof ApiError && e.errcode === ERRCODE.NOT_FOUND) {
          this.state = 'invalid'
        } else {
          this.state = 'failed'
          this.error = e instanceof ApiError ? e.message : DIST_MSG.loadFailed
        }
      })
    }
  }

  reload(): Promise<void> {
    return this.open(this.code)
  }

  copyLink(): Promise<boolean> {
    return this.root.app.copyText(this.inviteLink)
  }

  /** 立即使用: the invitation itself, signing in with its channel. */
  useNow(): void {
    if (this.view) this.root.navigate(this.view.invite_path)
  }

  /** 进入应用: the plain way in, without an invitation's channel (the map when signed in, else the login). */
  enterApp(): void {
    this.root.navigate(this.root.session.loggedIn ? '/map' : '/login')
  }

  /** The download page: the browser (or the host app) opens it; the mini-program shows it in /web. */
  async openDownload(): Promise<void> {
    const url = this.downloadLink
    if (!(await this.root.platform.openDownloadUrl(url))) this.root.navigate(`/web?url=${encodeURIComponent(url)}`)
  }

  /** Logout: a promotion page is public, but nothing of it is kept across sessions (the device's own codes stay). */
  reset(): void {
    this.view = null
    this.state = 'idle'
    this.error = ''
    this.code = ''
  }

  private rememberOwn(code: string): void {
    if (this.ownCodes.includes(code)) return
    this.ownCodes = [...this.ownCodes, code]
    this.root.platform.storage.set(STORAGE_KEYS.promoterCodes, JSON.stringify(this.ownCodes))
  }

  private show(view: DistributionView): void {
    this.view = view
    this.code = view.code
    this.state = 'ready'
  }
}

function readCodes(raw: string | null | undefined): string[] {
  try {
    const list: unknown = JSON.parse(raw ?? '[]')
    return Array.isArray(list) ? list.filter((c): c is string => typeof c === 'string' && isDistributionCode(c)) : []
  } catch {
    return []
  }
}
