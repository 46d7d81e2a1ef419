/** The upgrade prompt's rules (SPEC 4 "Upgrade prompt", SPEC 9 client version 70 / 1.0.38). */
import type { AppVersion, UpgradeCheck } from '../../types/upgrade'
import { osOf } from '../../src/domain/device'
import { APP_VERSION_STR, CLIENT_VERSION, isDownloadUrl, isNewerVersion, noteLines, promptDue, releasePlatformOf, shouldCheckUpgrade, upgradePromptOf, versionText } from '../../src/domain/upgrade'
import { UPGRADE_MSG } from '../../src/domain/upgradeMessages'
import { shanghaiDay } from '../../src/domain/vipPrompt'

const ANDROID = 'Mozilla/5.0 (Linux; Android 13; Redmi Note 12) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Mobile Safari/537.36'
const HARMONY_4 = 'Mozilla/5.0 (Linux; Android 12; HarmonyOS; NOH-AN00; HMSCore 6.13) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/114.0 Mobile Safari/537.36'
const HARMONY_NEXT = 'Mozilla/5.0 (Phone; OpenHarmony 5.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/114.0.0.0 Safari/537.36 ArkWeb/4.1.6.1 Mobile'
const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1'
const DESKTOP = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36'

function release(over: Partial<AppVersion> = {}): AppVersion {
  return {
    platform: 'android',
    version: 72,
    version_str: '1.0.40',
    upgrades: ['新增路线规划', '修复了签到定位不准的问题'],
    download_url: 'https://dl.example.com/teammap-1.0.40.apk',
    released_at: '2026-06-01T02:00:00.000Z',
    ...over,
  }
}

const answer = (latest: AppVersion | null): UpgradeCheck => ({ has_update: !!latest, latest })

describe('the constants of SPEC 9', () => {
  it('should send client version 70 and show app version 1.0.38', () => {
    expect(CLIENT_VERSION).toBe(70)
    expect(APP_VERSION_STR).toBe('1.0.38')
  })
})

describe('who asks for upgrades (Android or HarmonyOS H5 only)', () => {
  it('should ask on Android and on HarmonyOS (old and NEXT user agents) in the H5 app', () => {
    expect(shouldCheckUpgrade(osOf(ANDROID), 'h5')).toBe(true)
    expect(shouldCheckUpgrade(osOf(HARMONY_4), 'h5')).toBe(true)
    expect(shouldCheckUpgrade(osOf(HARMONY_NEXT), 'h5')).toBe(true)
    expect(releasePlatformOf(osOf(ANDROID), 'h5')).toBe('android')
    expect(releasePlatformOf(osOf(HARMONY_4), 'h5')).toBe('harmony')
    expect(releasePlatformOf(osOf(HARMONY_NEXT), 'h5')).toBe('harmony')
  })

  it('should not ask on iOS, a desktop or an unknown system', () => {
    expect(shouldCheckUpgrade(osOf(IPHONE), 'h5')).toBe(false)
    expect(shouldCheckUpgrade(osOf(DESKTOP), 'h5')).toBe(false)
    expect(shouldCheckUpgrade(osOf(''), 'h5')).toBe(false)
    expect(releasePlatformOf('ios', 'h5')).toBeNull()
  })

  it('should never ask in the mini-program, even on an Android phone (WeChat updates it)', () => {
    expect(shouldCheckUpgrade('android', 'weapp')).toBe(false)
    expect(shouldCheckUpgrade('harmony', 'weapp')).toBe(false)
    expect(releasePlatformOf('android', 'weapp')).toBeNull()
  })

  it('should read the os case-insensitively', () => {
    expect(releasePlatformOf(' Android ', 'h5')).toBe('android')
  })
})

describe('once a day (Asia/Shanghai)', () => {
  it('should be due when no button was ever pressed', () => {
    expect(promptDue(null, '2026-06-01')).toBe(true)
    expect(promptDue(undefined, '2026-06-01')).toBe(true)
    expect(promptDue('', '2026-06-01')).toBe(true)
  })

  it('should not be due again on the day a button was pressed, and be due the next day', () => {
    expect(promptDue('2026-06-01', '2026-06-01')).toBe(false)
    expect(promptDue('2026-06-01', '2026-06-02')).toBe(true)
  })

  it('should turn the day at midnight in Shanghai (16:00 UTC), not at midnight UTC', () => {
    const pressed = shanghaiDay(new Date('2026-06-01T15:59:59.000Z')) // 23:59:59 on 1 June in Shanghai
    expect(pressed).toBe('2026-06-01')
    expect(promptDue(pressed, shanghaiDay(new Date('2026-06-01T15:59:59.999Z')))).toBe(false)
    expect(promptDue(pressed, shanghaiDay(new Date('2026-06-01T16:00:00.000Z')))).toBe(true) // 00:00 on 2 June
    // 07:00 on 2 June in Shanghai is still 1 June in UTC: a new day here.
    expect(promptDue(pressed, shanghaiDay(new Date('2026-06-01T23:00:00.000Z')))).toBe(true)
  })
})

describe('version compare and texts', () => {
  it("should take only a version code above the client's as newer", () => {
    expect(isNewerVersion(71)).toBe(true)
    expect(isNewerVersion(70)).toBe(false)
    expect(isNewerVersion(69)).toBe(false)
    expect(isNewerVersion(100, 100)).toBe(false)
    expect(isNewerVersion(101, 100)).toBe(true)
    expect(isNewerVersion(70.5)).toBe(false)
    expect(isNewerVersion(Number.NaN)).toBe(false)
  })

  it('should write the version line with the display version, or the code when there is none', () => {
    expect(versionText('1.0.40', 72)).toBe('新版本 1.0.40')
    expect(versionText(' 1.0.40 ', 72)).toBe('新版本 1.0.40')
    expect(versionText('', 72)).toBe('新版本（版本号 72）')
    expect(UPGRADE_MSG.title).toBe('发现新版本')
    expect(UPGRADE_MSG.later).toBe('稍后')
    expect(UPGRADE_MSG.upgradeNow).toBe('立即升级')
    expect(UPGRADE_MSG.currentVersion(APP_VERSION_STR)).toBe('当前版本 1.0.38')
  })

  it('should make note lines of multi-line text or a list, without blank lines', () => {
    expect(noteLines('1. 新增路线规划\r\n\n  2. 修复问题  \r3. 优化')).toEqual(['1. 新增路线规划', '2. 修复问题', '3. 优化'])
    expect(noteLines(['a', ' ', 'b\nc'])).toEqual(['a', 'b', 'c'])
    expect(noteLines('')).toEqual([])
    expect(noteLines(null)).toEqual([])
  })

  it('should open only http(s) installer addresses', () => {
    expect(isDownloadUrl('https://dl.example.com/a.apk')).toBe(true)
    expect(isDownloadUrl('http://10.0.0.2:8080/a.hap')).toBe(true)
    expect(isDownloadUrl('javascript:alert(1)')).toBe(false)
    expect(isDownloadUrl('/files/a.apk')).toBe(false)
    expect(isDownloadUrl('https://')).toBe(false)
    expect(isDownloadUrl('')).toBe(false)
  })
})

describe("the prompt for the server's answer", () => {
  it('should show the version line, the notes and the installer of a newer release', () => {
    expect(upgradePromptOf(answer(release()))).toEqual({
      show: true,
      version: '新版本 1.0.40',
      notes: ['新增路线规划', '修复了签到定位不准的问题'],
      url: 'https://dl.example.com/teammap-1.0.40.apk',
    })
  })

  it('should fill in a note when the release has none', () => {
    expect(upgradePromptOf(answer(release({ upgrades: [] })))?.notes).toEqual([UPGRADE_MSG.noNotes])
  })

  it('should show nothing without an update, for a release not above the client, or without a web installer', () => {
    expect(upgradePromptOf(answer(null))).toBeNull()
    expect(upgradePromptOf(undefined)).toBeNull()
    expect(upgradePromptOf({ has_update: false, latest: release() })).toBeNull()
    expect(upgradePromptOf(answer(release({ version: CLIENT_VERSION })))).toBeNull()
    expect(upgradePromptOf(answer(release({ download_url: 'javascript:alert(1)' })))).toBeNull()
  })
})
