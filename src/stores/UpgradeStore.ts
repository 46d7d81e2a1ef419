/**
 * The app-upgrade prompt (SPEC 4 "Upgrade prompt"): at app start the H5 app on Android or
 * HarmonyOS asks the server for a newer release, at most once a day, and shows 'new version found'
 * with the version and its notes. Either button ('later', 'upgrade now') stores today's
 * (Asia/Shanghai) date; 'upgrade now' opens the installer's address. AppStore owns one of these
 * and exposes its state as SPEC 3's app_upgrade.
 */
import { makeAutoObservable, runInAction } from 'mobx'
import type { ReleasePlatform } from '../../types/upgrade'
import { CLIENT_VERSION, NO_UPGRADE, promptDue, releasePlatformOf, upgradePromptOf, type AppUpgrade } from '../domain/upgrade'
import { shanghaiDay } from '../domain/vipPrompt'
import type { RootStore } from './RootStore'
import { STORAGE_KEYS } from './storageKeys'

export class UpgradeStore {
  state: AppUpgrade = { ...NO_UPGRADE }
  private checking = false

  constructor(private readonly root: RootStore) {
    makeAutoObservable<UpgradeStore, 'root' | 'checking'>(this, { root: false, checking: false })
  }

  /** The platform whose releases this app takes: H5 on Android or HarmonyOS; null elsewhere. */
  releasePlatform(): ReleasePlatform | null {
    const { device } = this.root.platform
    return releasePlatformOf(device.os(), device.platform)
  }

  /**
   * Asks the server (quietly: a failed check bothers nobody) unless this app never upgrades itself,
   * a button was already pressed today, or a check is under way or showing. True when the prompt shows.
   */
  async check(now: Date = new Date()): Promise<boolean> {
    const platform = this.releasePlatform()
    if (!platform || this.checking || this.state.show) return false
    if (!promptDue(this.root.platform.storage.get(STORAGE_KEYS.upgradePromptDay), shanghaiDay(now))) return false
    this.checking = true
    try {
      const check = await this.root.api.post('/api/system/check/upgrade', { version: CLIENT_VERSION, platform }, { background: true, quiet: true })
      const prompt = upgradePromptOf(check, CLIENT_VERSION)
      if (!prompt) return false
      runInAction(() => {
        this.state = prompt
      })
      return true
    } finally {
      this.checking = false
    }
  }

  /** 'Later': closes the prompt until tomorrow. */
  dismiss(now: Date = new Date()): void {
    this.root.platform.storage.set(STORAGE_KEYS.upgradePromptDay, shanghaiDay(now))
    this.state = { ...this.state, show: false }
  }

  /** 'Upgrade now': closes the prompt until tomorrow and opens the installer. */
  async upgradeNow(now: Date = new Date()): Promise<boolean> {
    const { url } = this.state
    this.dismiss(now)
    return url ? this.root.platform.openDownloadUrl(url) : false
  }
}
