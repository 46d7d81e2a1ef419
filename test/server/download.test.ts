/**
 * The mobile app download page (SPEC 1 "a mobile app download page"): GET /download,
 * rendered by the API server from the system config's brand and the newest Android and HarmonyOS
 * releases, with the WeChat "open in the browser" overlay (WeChat blocks APK downloads).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DOWNLOAD_MSG } from '../../src/domain/downloadMessages'
import { insertAppRelease } from '../../server/src/db/app-releases'
import { registerStatic } from '../../server/src/static'
import { makeTestApp, type TestApp } from './helpers'

const WECHAT_UA =
  'Mozilla/5.0 (Linux; Android 13; Redmi Note 12) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/111.0.5563.116 Mobile Safari/537.36 XWEB/1110017 MMWEBSDK/20231202 MicroMessenger/8.0.47.2560(0x28002F30) WeChat/arm64 Weixin NetType/WIFI Language/zh_CN ABI/arm64'
const PHONE_UA = 'Mozilla/5.0 (Linux; Android 13; Redmi Note 12) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36'

let t: TestApp
beforeEach(async () => {
  t = await makeTestApp()
})
afterEach(async () => {
  await t.close()
})

const get = (url = '/download', ua = PHONE_UA) => t.app.inject({ method: 'GET', url, headers: { 'user-agent': ua } })

async function release(platform: 'android' | 'harmony', version_code: number, version_name: string, notes = '', download_url = `https://dl.example.com/${platform}-${version_name}.apk`) {
  await insertAppRelease(t.db.kysely, { platform, version_code, version_name, notes, download_url, created_at: '2025-05-31T17:30:00.000Z' })
}

/** The page's visible text, tags removed, entities decoded. */
function text(html: string): string {
  return html
    .replace(/<style>[\s\S]*?<\/style>/, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
}

describe('GET /download', () => {
  it('should show the newest Android and HarmonyOS releases with notes and a download button, under the brand', async () => {
    await release('android', 70, '1.0.38', 'old notes')
    await release('android', 72, '1.0.40', '新增任务中心\n\n修复签到定位偏移')
    await release('harmony', 71, '1.0.39', '适配鸿蒙')
    await t.db.kysely.updateTable('system_config').set({ brand: '巡店地图' }).execute()

    const res = await get()
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8')
    // Self-contained: no scripts, nothing loaded from elsewhere.
    expect(res.headers['content-security-policy']).toContain("default-src 'none'")
    expect(res.body).not.toMatch(/<script|<link|src=/i)
    const page = text(res.body)
    expect(page).toContain('巡店地图 App下载')
    expect(page).toContain(`${DOWNLOAD_MSG.android} ${DOWNLOAD_MSG.version('1.0.40')}`)
    expect(page).toContain('新增任务中心 修复签到定位偏移')
    expect(page).not.toContain('1.0.38')
    expect(page).not.toContain('old notes')
    expect(page).toContain(`${DOWNLOAD_MSG.harmony} ${DOWNLOAD_MSG.version('1.0.39')}`)
    expect(page).toContain('适配鸿蒙')
    // The release day is Shanghai's (17:30 UTC on 31 May is 1 June there).
    expect(page).toContain(DOWNLOAD_MSG.released('2025-06-01'))
    expect(res.body).toContain('<a class="button" href="https://dl.example.com/android-1.0.40.apk"')
    expect(res.body).toContain('<a class="button" href="https://dl.example.com/harmony-1.0.39.apk"')
    expect(page).not.toContain(DOWNLOAD_MSG.none)
    expect(page).not.toContain(DOWNLOAD_MSG.wechatOverlay)
    // Android first.
    expect(res.body.indexOf('data-platform="android"')).toBeLessThan(res.body.indexOf('data-platform="harmony"'))
  })

  it('should say 暂无可下载的版本 when there is no release, with the default brand', async () => {
    const res = await get()
    expect(res.statusCode).toBe(200)
    const page = text(res.body)
    expect(page).toContain(DOWNLOAD_MSG.none)
    expect(page).toContain('团队地图 App下载')
    expect(res.body).not.toContain('class="button"')
  })

  it('should show only the platform that has a release', async () => {
    await release('harmony', 71, '1.0.39')
    const res = await get()
    expect(res.body).toContain('data-platform="harmony"')
    expect(res.body).not.toContain('data-platform="android"')
    expect(text(res.body)).not.toContain(DOWNLOAD_MSG.none)
  })

  it('should escape every text from the database, and link only http(s) installers', async () => {
    await t.db.kysely.updateTable('system_config').set({ brand: '<b>地图</b>&"\'' }).execute()
    await release('android', 72, '1.0<img src=x onerror=alert(1)>', '<script>alert(1)</script>\n"引号" & \'单引号\'', 'https://dl.example.com/a.apk?x="><script>alert(2)</script>')
    await release('harmony', 71, '1.0.39', '', 'javascript:alert(3)')
    const res = await get()
    expect(res.body).not.toMatch(/<script|<img|<b>|javascript:/i)
    expect(res.body).toContain('&lt;script&gt;alert(1)&lt;/script&gt;')
    expect(res.body).toContain('href="https://dl.example.com/a.apk?x=&quot;&gt;&lt;script&gt;alert(2)&lt;/script&gt;"')
    const page = text(res.body)
    expect(page).toContain('<b>地图</b>&"\' App下载')
    expect(page).toContain('"引号" & \'单引号\'')
    expect(page).toContain(DOWNLOAD_MSG.version('1.0<img src=x onerror=alert(1)>'))
    // The HarmonyOS release with a bad address shows, without a button.
    expect(res.body.match(/class="button"/g)).toHaveLength(1)
  })

  it("should cover the page with '请点击右上角「…」，选择在浏览器中打开' inside WeChat, where APK downloads are blocked", async () => {
    await release('android', 72, '1.0.40')
    const res = await get('/download', WECHAT_UA)
    expect(text(res.body)).toContain('请点击右上角「…」，选择在浏览器中打开')
    expect(res.body).toContain('class="wechat"')
    expect(res.headers.vary).toMatch(/User-Agent/i)
    // The releases are still there beneath it.
    expect(res.body).toContain('data-platform="android"')
    expect(text((await get('/download', PHONE_UA)).body)).not.toContain(DOWNLOAD_MSG.wechatOverlay)
  })

  it('should answer /download/ and /download?from=qr the same', async () => {
    await release('android', 72, '1.0.40')
    for (const url of ['/download/', '/download?from=qr']) {
      const res = await get(url)
      expect(res.statusCode).toBe(200)
      expect(res.body).toContain('data-platform="android"')
    }
  })

  it("should not be swallowed by the H5 build's fallback to index.html", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'teammap-download-'))
    try {
      writeFileSync(join(dir, 'index.html'), '<!doctype html><div id="app"></div>')
      await registerStatic(t.app, dir)
      for (const url of ['/download', '/download/', '/download?from=qr']) {
        const res = await get(url)
        expect(res.body).toContain(DOWNLOAD_MSG.none)
        expect(res.body).not.toContain('id="app"')
      }
      // Other paths still get the app.
      expect((await get('/downloads')).body).toContain('id="app"')
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
