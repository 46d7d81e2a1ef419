/**
 * 导航 in the built mini-program (dist/weapp run in Node with fake wx, mini-runtime.cjs): a marker's
 * detail and a route's stop hand WeChat's map page (wx.openLocation) the place's GCJ-02
 * coordinates as stored, its name and its address, and ask no server for anything on the way.
 */
import { execFileSync, execSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { DIRECTIONS_MSG } from '../../src/domain/directionsMessages'
import { MEASURE_MSG } from '../../src/domain/measureMessages'
import { encryptJson } from '../../src/domain/secure'
import { buildUser } from '../support/fakes'
import { buildField, buildLayer, buildMarker } from '../support/mapBuilders'

const root = path.resolve(__dirname, '../..')
const dist = path.join(root, 'dist/weapp')

interface Run {
  rendered: string
  requests: { url: string; data?: Record<string, unknown> }[]
  tapped: string | null
  locations: { latitude: number; longitude: number; name: string; address: string; scale: number }[]
}

/** Runs one page of the build: optionally taps a marker on its map, then the element showing `tap`. */
function runPage(route: string, storage: Record<string, string>, tap: string, responses: Record<string, unknown>, opts: { markerTap?: number; waitMs?: number } = {}): Run {
  const answers = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'mini-nav-')), 'responses.json')
  fs.writeFileSync(answers, JSON.stringify(responses))
  const out = execFileSync(process.execPath, [path.join(__dirname, 'mini-runtime.cjs'), dist, route, JSON.stringify(storage), tap, `@${answers}`], {
    encoding: 'utf8',
    env: { ...process.env, MINI_WAIT_MS: String(opts.waitMs ?? 1200), MINI_MARKER_TAP: opts.markerTap ? String(opts.markerTap) : '', MINI_FS: '', MINI_INPUT: '[]' },
    maxBuffer: 64 * 1024 * 1024,
  })
  return JSON.parse(out) as Run
}

jest.setTimeout(180_000)

beforeAll(() => {
  if (!fs.existsSync(path.join(dist, 'app.json'))) execSync('npx taro build --type weapp', { cwd: root, stdio: 'inherit' })
})

const user = buildUser({ id: 7, nickname: '小王', select_groupid: 3, select_groupname: '外业队', modules: [{ id: 'module_routing' }] })
const storage = { user_info: encryptJson({ user, is_admin: true, admin_vip_expired: false }) }

describe('导航 on the mini-program', () => {
  it("opens WeChat's map page at a marker's GCJ-02 place with its name and address, from the marker's detail", () => {
    const layer = buildLayer({ id: 1, name: '客户', type: 1, show: true })
    const address = buildField({ id: 11, layer_id: 1, name: '收货地址', kind: 'text' })
    const shop = buildMarker({ id: 5, layer_id: 1, name: '东单门店', points: '116.4180000,39.9140000', fields: { '11': '北京市东城区东单北大街1号' } })
    const run = runPage(
      'pages/map/index',
      storage,
      DIRECTIONS_MSG.button,
      { '/api/layer/getlist': [layer], '/api/marker/getlist': { list: [shop] }, '/api/layer/field/getlist': [address] },
      { markerTap: 5 },
    )
    expect(run.tapped).not.toBeNull()
    expect(run.locations).toEqual([{ latitude: 39.914, longitude: 116.418, name: '东单门店', address: '北京市东城区东单北大街1号', scale: 16 }])
    // Nothing about the place went to a server: the calls are the map's own loads.
    const paths = run.requests.map((r) => r.url.replace(/^https?:\/\/[^/]+/, ''))
    expect(paths.filter((p) => !/^\/api\/(layer|marker|system|user|group|module|sync)\//.test(p))).toEqual([])
    expect(JSON.stringify(run.requests)).not.toContain('东单北大街')
  })

  it("opens WeChat's map page at a route's stop, from the route's page", () => {
    const route = {
      id: 9,
      name: '送货',
      mode: 'driving',
      stops: [
        { marker_id: 5, name: '东单门店', lng: 116.418, lat: 39.914 },
        { marker_id: null, name: '西单仓库', lng: 116.374, lat: 39.913 },
      ],
      legs: [{ distance: 3800, duration: 600, source: 'straight' }],
      distance: 3800,
      duration: 600,
      creator: { id: 7, nickname: '小王' },
      created_at: '2026-12-01T00:00:00.000Z',
      updated_at: '2026-12-01T00:00:00.000Z',
    }
    const run = runPage('pages/route/add/index?id=9', storage, DIRECTIONS_MSG.button, { '/api/route/getbyid': route, '/api/layer/getlist': [], '/api/route/plan': { ...route, provider: false } })
    expect(run.tapped).not.toBeNull()
    expect(run.locations).toEqual([{ latitude: 39.914, longitude: 116.418, name: '东单门店', address: '', scale: 16 }])
  })

  it('says so when WeChat cannot open its map page, and nothing when the user backs out of it', () => {
    const stop = { marker_id: null, name: '西单仓库', lng: 116.374, lat: 39.913 }
    const route = {
      id: 9,
      name: '送货',
      mode: 'driving',
      stops: [stop, { ...stop, name: '东单门店', lng: 116.418 }],
      legs: [{ distance: 3800, duration: 600, source: 'straight' }],
      distance: 3800,
      duration: 600,
      creator: { id: 7, nickname: '小王' },
      created_at: '2026-12-01T00:00:00.000Z',
      updated_at: '2026-12-01T00:00:00.000Z',
    }
    const answers = { '/api/route/getbyid': route, '/api/layer/getlist': [], '/api/route/plan': { ...route, provider: false } }
    const failed = runPage('pages/route/add/index?id=9', storage, DIRECTIONS_MSG.button, { ...answers, __openLocation: { errMsg: 'openLocation:fail system error' } })
    expect(failed.locations).toHaveLength(1)
    expect(failed.rendered).toContain(DIRECTIONS_MSG.openFailed)
    const cancelled = runPage('pages/route/add/index?id=9', storage, DIRECTIONS_MSG.button, { ...answers, __openLocation: { errMsg: 'openLocation:fail cancel' } })
    expect(cancelled.locations).toHaveLength(1)
    expect(cancelled.rendered).not.toContain(DIRECTIONS_MSG.openFailed)
  })

  it("offers 测量 on the map's tools on the free tier, and opens the measuring bar from it", () => {
    const free = buildUser({ id: 7, nickname: '小王', select_groupid: 3, select_groupname: '外业队', level: 0, modules: [] })
    const layer = buildLayer({ id: 1, name: '客户', type: 1, show: true })
    const run = runPage('pages/map/index', { user_info: encryptJson({ user: free, is_admin: true, admin_vip_expired: false }) }, MEASURE_MSG.tool, {
      '/api/layer/getlist': [layer],
      '/api/marker/getlist': { list: [] },
    })
    expect(run.tapped).not.toBeNull()
    for (const text of [MEASURE_MSG.lengthMode, MEASURE_MSG.areaMode, MEASURE_MSG.lengthStart, MEASURE_MSG.undo, MEASURE_MSG.clear, MEASURE_MSG.done]) expect(run.rendered).toContain(`"${text}"`)
  })
})
