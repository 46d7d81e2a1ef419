/**
 * The upgrade prompt in the stores (SPEC 4 "Upgrade prompt": Android or HarmonyOS only,
 * once a day, either button stores today's date; SPEC 7 /api/system/check/upgrade {version}).
 */
import type { AppVersion, UpgradeCheck } from '../../types/upgrade'
import { CLIENT_VERSION } from '../../src/domain/upgrade'
import { UPGRADE_MSG } from '../../src/domain/upgradeMessages'
import { CLEARED_ON_LOGOUT, STORAGE_KEYS } from '../../src/stores/storageKeys'
import { UpgradeStore } from '../../src/stores/UpgradeStore'
import { buildLogin, makeRoot, ok, type Handler } from '../support/fakes'

const ANDROID = 'Mozilla/5.0 (Linux; Android 13; Redmi Note 12) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Mobile Safari/537.36'
const HARMONY = 'Mozilla/5.0 (Phone; OpenHarmony 5.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/114.0.0.0 Safari/537.36 ArkWeb/4.1.6.1 Mobile'
const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1'
/** 10:00 on 1 June 2026 in Asia/Shanghai. */
const NOW = new Date('2026-06-01T02:00:00.000Z')
const PATH = '/api/system/check/upgrade'

function release(over: Partial<AppVersion> = {}): AppVersion {
  return {
    platform: 'android',
    version: 72,
    version_str: '1.0.40',
    upgrades: ['新增路线规划', '修复了签到定位不准的问题'],
    download_url: 'https://dl.example.com/teammap-1.0.40.apk',
    released_at: '2026-05-30T02:00:00.000Z',
    ...over,
  }
}

/** A server with `latest` for every platform asked about (null: up to date). */
function server(latest: AppVersion | null): Record<string, Handler> {
  return {
    [PATH]: (body): ReturnType<Handler> => ok({ has_update: !!latest, latest: latest && { ...latest, platform: body.platform } } satisfies UpgradeCheck),
  }
}

const upgradeCalls = (calls: { path: string; body: any }[]) => calls.filter((c) => c.path === PATH)

describe('the upgrade check at app start', () => {
  it('should prompt on Android when the server has a newer release, sending version 70 and the platform', async () => {
    const { root, calls } = makeRoot(server(release()), { ua: ANDROID })
    expect(await root.app.checkUpgrade(NOW)).toBe(true)
    expect(upgradeCalls(calls)).toHaveLength(1)
    expect(upgradeCalls(calls)[0].body).toMatchObject({ version: CLIENT_VERSION, platform: 'android', header: { os: 'android', device: 'app_h5' } })
    expect(root.app.app_upgrade).toEqual({
      show: true,
      version: '新版本 1.0.40',
      notes: ['新增路线规划', '修复了签到定位不准的问题'],
      url: 'https://dl.example.com/teammap-1.0.40.apk',
    })
    // A background check: no loading mask, no notice.
    expect(root.app.show_loading).toBe(false)
    expect(root.app.notices).toHaveLength(0)
  })

  it('should prompt on HarmonyOS, asking for HarmonyOS releases', async () => {
    const { root, calls } = makeRoot(server(release({ download_url: 'https://dl.example.com/teammap-1.0.40.hap' })), { ua: HARMONY })
    expect(await root.app.checkUpgrade(NOW)).toBe(true)
    expect(upgradeCalls(calls)[0].body).toMatchObject({ version: 70, platform: 'harmony' })
    expect(root.app.app_upgrade).toMatchObject({ show: true, url: 'https://dl.example.com/teammap-1.0.40.hap' })
  })

  it('should ask for a signed-in user too', async () => {
    const { root, calls } = makeRoot({ ...server(release()), '/api/user/login': () => ok(buildLogin()) }, { ua: ANDROID })
    await root.session.login('13800138000', '123456')
    expect(await root.app.checkUpgrade(NOW)).toBe(true)
    expect(upgradeCalls(calls)[0].body.header).toMatchObject({ userid: 7, token: 'tok-7' })
  })

  it('should not call at all on an iPhone', async () => {
    const { root, calls } = makeRoot(server(release()), { ua: IPHONE })
    expect(await root.app.checkUpgrade(NOW)).toBe(false)
    expect(calls).toHaveLength(0)
    expect(root.app.app_upgrade.show).toBe(false)
  })

  it('should not call at all in the mini-program, even on an Android phone', async () => {
    const { root, calls } = makeRoot(server(release()), { ua: ANDROID })
    root.platform.device = { platform: 'weapp', kind: () => 'mobile', os: () => 'android', header: () => 'app_weapp', canOverrideDesktop: () => false }
    expect(await root.app.checkUpgrade(NOW)).toBe(false)
    expect(calls).toHaveLength(0)
    expect(root.app.app_upgrade.show).toBe(false)
  })

  it('should not prompt when the app is up to date, and ask again on the next check', async () => {
    const { root, calls } = makeRoot(server(null), { ua: ANDROID })
    expect(await root.app.checkUpgrade(NOW)).toBe(false)
    expect(root.app.app_upgrade.show).toBe(false)
    expect(await root.app.checkUpgrade(NOW)).toBe(false)
    expect(upgradeCalls(calls)).toHaveLength(2)
  })

  it('should not prompt for a release that is not above the client or has no web installer', async () => {
    const stale = makeRoot(server(release({ version: CLIENT_VERSION })), { ua: ANDROID })
    expect(await stale.root.app.checkUpgrade(NOW)).toBe(false)
    const unsafe = makeRoot(server(release({ download_url: 'javascript:alert(1)' })), { ua: ANDROID })
    expect(await unsafe.root.app.checkUpgrade(NOW)).toBe(false)
    expect(unsafe.root.app.app_upgrade.show).toBe(false)
  })

  it('should stay quiet when the check fails', async () => {
    const { root } = makeRoot({ [PATH]: () => ({ status: 500, data: 'boom' }) }, { ua: ANDROID })
    expect(await root.app.checkUpgrade(NOW)).toBe(false)
    expect(root.app.notices).toHaveLength(0)
    const network = makeRoot({ [PATH]: () => Promise.reject(new Error('offline')) }, { ua: ANDROID })
    expect(await network.root.app.checkUpgrade(NOW)).toBe(false)
    expect(network.root.app.notices).toHaveLength(0)
  })

  it('should ask once while a check is under way or the prompt shows', async () => {
    const { root, calls } = makeRoot(server(release()), { ua: ANDROID })
    const [first, second] = await Promise.all([root.app.checkUpgrade(NOW), root.app.checkUpgrade(NOW)])
    expect([first, second]).toEqual([true, false])
    expect(await root.app.checkUpgrade(NOW)).toBe(false)
    expect(upgradeCalls(calls)).toHaveLength(1)
  })
})

describe("the prompt's buttons (either stores today's date)", () => {
  it("should store today on 'later' and not prompt again the same day", async () => {
    const { root, calls, storage } = makeRoot(server(release()), { ua: ANDROID })
    await root.app.checkUpgrade(NOW)
    root.app.dismissUpgrade(NOW)
    expect(root.app.app_upgrade.show).toBe(false)
    expect(storage.get(STORAGE_KEYS.upgradePromptDay)).toBe('2026-06-01')
    // 23:59 the same day in Shanghai: no call, no prompt.
    expect(await root.app.checkUpgrade(new Date('2026-06-01T15:59:00.000Z'))).toBe(false)
    expect(upgradeCalls(calls)).toHaveLength(1)
    expect(root.app.app_upgrade.show).toBe(false)
  })

  it('should prompt again from midnight in Shanghai', async () => {
    const { root, calls } = makeRoot(server(release()), { ua: ANDROID, storage: { [STORAGE_KEYS.upgradePromptDay]: '2026-06-01' } })
    expect(await root.app.checkUpgrade(new Date('2026-06-01T15:59:59.000Z'))).toBe(false)
    expect(calls).toHaveLength(0)
    expect(await root.app.checkUpgrade(new Date('2026-06-01T16:00:00.000Z'))).toBe(true)
    expect(upgradeCalls(calls)).toHaveLength(1)
  })

  it("should store today on 'upgrade now' and open the installer", async () => {
    const opened: string[] = []
    const { root, calls, storage } = makeRoot(server(release()), {
      ua: ANDROID,
      openDownloadUrl: async (url) => {
        opened.push(url)
        return true
      },
    })
    const upgrade = new UpgradeStore(root)
    expect(await upgrade.check(NOW)).toBe(true)
    expect(upgrade.state.show).toBe(true)
    expect(await upgrade.upgradeNow(NOW)).toBe(true)
    expect(opened).toEqual(['https://dl.example.com/teammap-1.0.40.apk'])
    expect(upgrade.state.show).toBe(false)
    expect(storage.get(STORAGE_KEYS.upgradePromptDay)).toBe('2026-06-01')
    expect(await upgrade.check(NOW)).toBe(false)
    expect(upgradeCalls(calls)).toHaveLength(1)
  })

  it("should close through the app store's 'upgrade now' too (the mini-program entry opens nothing)", async () => {
    const { root, storage } = makeRoot(server(release()), { ua: ANDROID })
    await root.app.checkUpgrade(NOW)
    await root.app.upgradeNow(NOW)
    expect(root.app.app_upgrade.show).toBe(false)
    expect(storage.get(STORAGE_KEYS.upgradePromptDay)).toBe('2026-06-01')
  })

  it('should keep the date across logout', async () => {
    expect(CLEARED_ON_LOGOUT).not.toContain(STORAGE_KEYS.upgradePromptDay)
    const { root, storage } = makeRoot({ ...server(release()), '/api/user/login': () => ok(buildLogin()), '/api/user/logout': () => ok(null) }, { ua: ANDROID })
    await root.session.login('13800138000', '123456')
    await root.app.checkUpgrade(NOW)
    root.app.dismissUpgrade(NOW)
    await root.session.logout()
    expect(storage.get(STORAGE_KEYS.upgradePromptDay)).toBe('2026-06-01')
  })

  it('should say what the dialog says', () => {
    expect([UPGRADE_MSG.title, UPGRADE_MSG.later, UPGRADE_MSG.upgradeNow]).toEqual(['发现新版本', '稍后', '立即升级'])
  })
})
