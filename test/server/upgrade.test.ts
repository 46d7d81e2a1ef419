/** /api/system/check/upgrade (SPEC 7 {version}): the newest release of the platform above the client's version. */
import { ErrCode } from '../../types/api'
import { insertAppRelease, type NewAppRelease } from '../../server/src/db/app-releases'
import { UPGRADE_MSG } from '../../src/domain/upgradeMessages'
import { makeTestApp, type TestApp } from './helpers'

const PATH = '/api/system/check/upgrade'
let t: TestApp
beforeEach(async () => {
  t = await makeTestApp()
})
afterEach(() => t.close())

function addRelease(over: Partial<NewAppRelease> & Pick<NewAppRelease, 'version_code'>) {
  return insertAppRelease(t.db.kysely, {
    platform: 'android',
    version_name: `1.0.${over.version_code - 30}`,
    notes: '',
    download_url: `https://dl.example.com/teammap-${over.version_code}.apk`,
    created_at: '2025-05-30T02:00:00.000Z',
    ...over,
  })
}

describe(PATH, () => {
  it('should answer the newest release of the platform above the version, with its notes as lines', async () => {
    await addRelease({ version_code: 70 })
    await addRelease({ version_code: 72, version_name: '1.0.40', notes: '新增路线规划\r\n\n修复了签到定位不准的问题\n' })
    await addRelease({ version_code: 71 })
    await addRelease({ version_code: 80, platform: 'harmony', download_url: 'https://dl.example.com/teammap.hap' })
    const res = await t.call(PATH, { version: 70, platform: 'android' })
    expect(res).toMatchObject({ status: 200, errcode: 0 })
    expect(res.data).toEqual({
      has_update: true,
      latest: {
        platform: 'android',
        version: 72,
        version_str: '1.0.40',
        upgrades: ['新增路线规划', '修复了签到定位不准的问题'],
        download_url: 'https://dl.example.com/teammap-72.apk',
        released_at: '2025-05-30T02:00:00.000Z',
      },
    })
    const harmony = await t.call(PATH, { version: 70, platform: 'harmony' })
    expect(harmony.data.latest).toMatchObject({ platform: 'harmony', version: 80, download_url: 'https://dl.example.com/teammap.hap' })
  })

  it('should say there is no update when the client is up to date or its platform has no release', async () => {
    await addRelease({ version_code: 69 })
    await addRelease({ version_code: 70 })
    expect((await t.call(PATH, { version: 70, platform: 'android' })).data).toEqual({ has_update: false, latest: null })
    expect((await t.call(PATH, { version: 75, platform: 'android' })).data).toEqual({ has_update: false, latest: null })
    expect((await t.call(PATH, { version: 1, platform: 'harmony' })).data).toEqual({ has_update: false, latest: null })
    expect((await t.call(PATH, { version: 68, platform: 'android' })).data.latest.version).toBe(70)
  })

  it('should answer anyone, signed in or not (a stale session does not matter)', async () => {
    await addRelease({ version_code: 71 })
    expect((await t.call(PATH, { version: 70, platform: 'android' }, { userid: 9, token: 'stale' })).data.has_update).toBe(true)
    const { auth } = await t.login()
    expect((await t.call(PATH, { version: 70, platform: 'android' }, auth)).data.has_update).toBe(true)
  })

  it('should refuse a missing, negative, zero, fractional or non-number version with a clear message', async () => {
    const missing = await t.call(PATH, { platform: 'android' })
    expect(missing).toMatchObject({ status: 200, errcode: ErrCode.VALIDATION, errmsg: UPGRADE_MSG.versionRequired, data: null })
    for (const version of [-1, 0, 70.5, '70', null, 2 ** 31]) {
      expect(await t.call(PATH, { version, platform: 'android' })).toMatchObject({ status: 200, errcode: ErrCode.VALIDATION, errmsg: UPGRADE_MSG.versionInvalid })
    }
    expect(UPGRADE_MSG.versionRequired).toBe('请提供当前应用的版本号')
    expect(UPGRADE_MSG.versionInvalid).toBe('版本号应为大于0的整数')
  })

  it('should refuse a missing or unknown platform with a clear message', async () => {
    for (const platform of [undefined, 'ios', 'weapp', 'Android', 7]) {
      expect(await t.call(PATH, { version: 70, platform })).toMatchObject({ status: 200, errcode: ErrCode.VALIDATION, errmsg: UPGRADE_MSG.platformInvalid })
    }
    expect(UPGRADE_MSG.platformInvalid).toBe('仅支持安卓（android）或鸿蒙（harmony）应用检查更新')
  })

  it('should keep one release per platform and version code', async () => {
    await addRelease({ version_code: 71 })
    // Not toThrow(): better-sqlite3's error class may come from another Jest realm.
    await expect(addRelease({ version_code: 71 })).rejects.toHaveProperty('message', expect.stringMatching(/unique|duplicate key/i))
    await addRelease({ version_code: 71, platform: 'harmony' })
  })
})
