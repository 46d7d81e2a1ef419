/**
 * GET /api/share/card/{id}.png: the picture of a forwarded share card. WeChat shows forwarded
 * cards at 5:4, so it is 500x400; it draws the share's own live data framed in the map part, the
 * name and brand in the band under it; a password share shows a lock and none of its data; a
 * share that is gone answers 404 (deleted) or 410 (expired) with the share view's words; any change
 * to the shared data makes a new picture with a new ETag.
 */
import { PNG } from 'pngjs'
import { withPageTags } from '../../server/src/static'
import { SHARE_MSG } from '../../src/domain/shareMessages'
import { DEFAULT_MARKER_COLOR } from '../../src/domain/constants'
import { cardFontFile, shareViewTags } from '../../server/src/services/share-card'
import { CARD_BAND, CARD_HEIGHT, CARD_WIDTH } from '../../server/src/services/share-card-svg'
import { makeShareWorld, ok, type ShareWorld } from './share-fixture'

let w: ShareWorld

afterEach(async () => {
  await w?.close()
})

const card = (id: string, headers: Record<string, string> = {}) => w.t.app.inject({ method: 'GET', url: `/api/share/card/${id}.png`, headers })

/** Pixels of the decoded picture matching a test, in the map part (above the band) or the band. */
function countPixels(png: PNG, part: 'map' | 'band', test: (r: number, g: number, b: number) => boolean): number {
  let n = 0
  const [from, to] = part === 'map' ? [0, png.height - CARD_BAND] : [png.height - CARD_BAND, png.height]
  for (let y = from; y < to; y++)
    for (let x = 0; x < png.width; x++) {
      const i = (y * png.width + x) * 4
      if (test(png.data[i], png.data[i + 1], png.data[i + 2])) n++
    }
  return n
}

const hex = (c: string) => [1, 3, 5].map((i) => parseInt(c.slice(i, i + 2), 16))
const [mr, mg, mb] = hex(DEFAULT_MARKER_COLOR)
/** The points' own colour (their default style), give or take anti-aliasing. */
const markerBlue = (r: number, g: number, b: number) => Math.abs(r - mr) < 24 && Math.abs(g - mg) < 24 && Math.abs(b - mb) < 24
/** Dark text on the white band. */
const ink = (r: number, g: number, b: number) => r < 90 && g < 90 && b < 90

describe('a share card picture', () => {
  beforeEach(async () => {
    w = await makeShareWorld()
  })

  it('is a 5:4 PNG showing the shared points in their colour and the share name in the band', async () => {
    const id = await w.share({ name: '巡检点位 <东区> & "北区"', data_ids: [w.layers.a] })
    const res = await card(id)
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toBe('image/png')
    expect(res.headers['x-content-type-options']).toBe('nosniff')
    expect(res.headers['cache-control']).toMatch(/max-age=\d+/)
    expect(res.headers.etag).toMatch(/^".+"$/)
    const png = PNG.sync.read(res.rawPayload)
    expect([png.width, png.height]).toEqual([CARD_WIDTH, CARD_HEIGHT])
    expect(png.width * 4).toBe(png.height * 5)
    // Two points, each a dot of some 150 pixels.
    expect(countPixels(png, 'map', markerBlue)).toBeGreaterThan(150)
    // The name is written (with the CJK font .ci/run installs; a name with <, & and " does not break the picture).
    expect(cardFontFile(undefined)).not.toBeNull()
    expect(countPixels(png, 'band', ink)).toBeGreaterThan(200)
  })

  it('shows a password share with a lock and none of its data', async () => {
    const open = await w.share({ data_ids: [w.layers.a] })
    const locked = await w.share({ data_ids: [w.layers.a], need_pwd: true, pwd: '1234' })
    const openPng = PNG.sync.read((await card(open)).rawPayload)
    const res = await card(locked)
    expect(res.statusCode).toBe(200)
    const lockedPng = PNG.sync.read(res.rawPayload)
    expect(countPixels(openPng, 'map', markerBlue)).toBeGreaterThan(150)
    expect(countPixels(lockedPng, 'map', markerBlue)).toBe(0)
    // The lock: a grey padlock in the middle.
    const grey = (r: number, g: number, b: number) => Math.abs(r - 0x86) < 12 && Math.abs(g - 0x90) < 12 && Math.abs(b - 0x9c) < 12
    expect(countPixels(lockedPng, 'map', grey)).toBeGreaterThan(2000)
  })

  it('answers 410 with the share view’s words once expired, 404 once deleted or unknown', async () => {
    const id = await w.share({ data_ids: [w.layers.a], exp: '2025-06-01' })
    w.t.clock.set('2025-06-01T15:00:00.000Z')
    expect((await card(id)).statusCode).toBe(200)
    w.t.clock.set('2025-06-01T16:00:00.000Z')
    const expired = await card(id)
    expect([expired.statusCode, expired.body]).toEqual([410, SHARE_MSG.expired])

    const other = await w.share({ data_ids: [w.layers.b] })
    ok(await w.call('/api/share/delete', { id: other }, w.owner))
    const gone = await card(other)
    expect([gone.statusCode, gone.body]).toEqual([404, SHARE_MSG.notFound])
    expect((await card('no-such-share')).statusCode).toBe(404)
    expect((await w.t.app.inject({ method: 'GET', url: `/api/share/card/${other}.svg` })).statusCode).toBe(404)
  })

  it('keeps its ETag while nothing changes and gets a new one when a shared marker moves', async () => {
    const id = await w.share({ data_ids: [w.layers.a] })
    const first = await card(id)
    const again = await card(id)
    expect(again.headers.etag).toBe(first.headers.etag)
    const unchanged = await card(id, { 'if-none-match': first.headers.etag as string })
    expect(unchanged.statusCode).toBe(304)

    ok(await w.call('/api/marker/save', { id: w.markers.a[0], layer_id: w.layers.a, name: 'A1', type: 0, points: '116.5,39.95' }, w.owner))
    const moved = await card(id)
    expect(moved.statusCode).toBe(200)
    expect(moved.headers.etag).not.toBe(first.headers.etag)
    expect(Buffer.compare(moved.rawPayload, first.rawPayload)).not.toBe(0)
  })
})

describe('the og: tags of /share/view, for chat apps that read only the page', () => {
  beforeEach(async () => {
    w = await makeShareWorld()
  })
  const tagsOf = (id: string, path = '/share/view') => shareViewTags(w.t.db.kysely, () => w.t.clock.now())(path, new URLSearchParams({ id }), 'http://map.example.cn')
  const tag = (html: string, property: string) => new RegExp(`<meta property="${property}" content="([^"]*)">`).exec(html)?.[1]
  const INDEX = '<!doctype html><html><head><title>团队地图</title></head><body><div id="app"></div></body></html>'

  it('names the share, escaped, and points og:image at its card picture', async () => {
    const id = await w.share({ name: '巡检 <东区> & "北区"', data_ids: [w.layers.a] })
    const html = withPageTags(INDEX, (await tagsOf(id))!)
    expect(tag(html, 'og:title')).toBe('巡检 &lt;东区&gt; &amp; &quot;北区&quot;')
    expect(tag(html, 'og:image')).toBe(`http://map.example.cn/api/share/card/${id}.png`)
    expect(html).toMatch(/<\/head><body><div id="app"><\/div>/)
    const locked = await w.share({ name: '加密', data_ids: [w.layers.a], need_pwd: true, pwd: '1234' })
    expect((await tagsOf(locked))!.description).toMatch(/需密码查看/)
  })

  it('says a deleted share is gone, without a picture, and has nothing for other pages', async () => {
    const id = await w.share({ data_ids: [w.layers.a] })
    ok(await w.call('/api/share/delete', { id }, w.owner))
    const html = withPageTags(INDEX, (await tagsOf(id))!)
    expect(tag(html, 'og:description')).toBe(SHARE_MSG.notFound)
    expect(tag(html, 'og:image')).toBeUndefined()
    expect(await tagsOf(id, '/map')).toBeNull()
  })
})
