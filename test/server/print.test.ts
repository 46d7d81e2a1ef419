/**
 * The print module on the server (/api/print/*, services/print.ts): module_print gates it (a VIP
 * module: the free tier refuses even the administrator), only layers the caller may read are drawn,
 * more than PRINT_MAX_MARKERS markers are refused, the PNG carries each marker's colour where it
 * lies (and a polygon's hole stays empty), the PDF opens in poppler with the paper's size, the
 * title and the team's name as text, and the base map comes only from the configured print source
 * with its 审图号 (a sheet without it says 无底图).
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { GifWriter } from 'omggif'
import { PNG } from 'pngjs'
import { ErrCode } from '../../types/api'
import type { PrintOptions, PrintProgress } from '../../types/print'
import { TEAM_UI_MSG } from '../../src/domain/messages'
import { PERM } from '../../src/domain/permissions'
import { DEFAULT_PRINT_OPTIONS, PRINT_MAX_MARKERS, frameArea, sheetLayout, toPage } from '../../src/domain/print'
import { PRINT_MSG } from '../../src/domain/printMessages'
import { makeTestApp, type Auth } from './helpers'
import { temporaryStorage } from '../../server/src/services/storage'
import { makeWorld, ok, type Person, type TeamWorld } from './teams-fixture'
import { shareBody } from './share-fixture'
import { SHARE_MSG } from '../../src/domain/shareMessages'

// Each print runs on a worker thread (bundled on first use) and the machine may be busy.
jest.setTimeout(60_000)

let w: TeamWorld
let printer: Person
let plain: Person
const L = { red: 0, area: 0, secret: 0 }

const VIEW = { west: 116.3, south: 39.9, east: 116.4, north: 39.96 }
/** Nothing but the map: no legend, titles, arrow or scale bar over the pixels the tests read. */
const BARE: PrintOptions = { ...DEFAULT_PRINT_OPTIONS, paper: 'A4', orientation: 'landscape', title: '片区图', legend: false, titles: false, north_arrow: false, scale_bar: false }

async function marker(layer_id: number, name: string, type: number, points: string, style: Record<string, unknown>, auth: Auth = w.owner): Promise<number> {
  return ok(await w.call('/api/marker/save', { layer_id, name, type, points, style }, auth)).id
}

async function world(options: Parameters<typeof makeTestApp>[0] = {}): Promise<void> {
  w = await makeWorld({ t: await makeTestApp(options) })
  printer = await w.join('13800000001', '打印员')
  plain = await w.join('13800000002', '普通成员')
  await w.role('打印', [PERM.MODULE_PRINT], [printer])
  L.red = await w.layer('客户', 1)
  L.area = await w.layer('片区', 3)
  L.secret = await w.layer('保密', 1)
  await marker(L.red, '红点', 0, '116.33,39.93', { color: '#FF0000' })
  // A square with a square hole in its middle, filled fully opaque.
  await marker(L.area, '回字形', 3, '116.36,39.915|116.39,39.915|116.39,39.945|116.36,39.945#116.37,39.925|116.38,39.925|116.38,39.935|116.37,39.935', {
    color: '#0000FF',
    fill_color: '#0000FF',
    fill_opacity: 1,
  })
  await marker(L.secret, '绿点', 0, '116.31,39.95', { color: '#00FF00' })
  // The printer reads the two public layers, not the secret one.
  for (const id of [L.red, L.area]) await w.grant(id, { user_id: printer.userid }, [PERM.NOTE_LIST])
}

/** Run after the world closes (a test's own file storage). */
let afterClose: (() => void)[] = []

afterEach(async () => {
  await w?.close()
  for (const f of afterClose) f()
  afterClose = []
})

async function printed(auth: Auth, fields: Record<string, unknown>): Promise<{ progress: PrintProgress; bytes: Buffer }> {
  const started = await w.call('/api/print/start', fields, auth)
  const { job_id } = ok(started)
  for (let i = 0; i < 600; i++) {
    const progress = ok(await w.call<PrintProgress>('/api/print/progress', { job_id }, auth))
    if (progress.state === 'done' || progress.state === 'failed') {
      if (progress.state === 'failed') return { progress, bytes: Buffer.alloc(0) }
      const res = await w.t.app.inject({ method: 'GET', url: progress.url! })
      expect(res.statusCode).toBe(200)
      return { progress, bytes: res.rawPayload }
    }
    await new Promise((r) => setTimeout(r, 50))
  }
  throw new Error('print did not finish')
}

function pixel(png: PNG, x: number, y: number): [number, number, number] {
  const i = (Math.round(y) * png.width + Math.round(x)) * 4
  return [png.data[i], png.data[i + 1], png.data[i + 2]]
}

/** Where a coordinate lands on the standard-quality A4 landscape sheet of VIEW. */
function at(lng: number, lat: number): { x: number; y: number } {
  const layout = sheetLayout(BARE, 150)
  return toPage(frameArea(VIEW, layout.map), { lng, lat })
}

function withPdf<T>(bytes: Buffer, read: (file: string) => T): T {
  const dir = mkdtempSync(join(tmpdir(), 'print-'))
  try {
    const file = join(dir, 'sheet.pdf')
    writeFileSync(file, bytes)
    return read(file)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

describe('module_print gates every print call', () => {
  beforeEach(() => world())

  it('refuses a member whose roles do not grant 打印', async () => {
    const res = await w.call('/api/print/start', { layer_ids: [L.red], options: BARE, format: 'png' }, plain)
    expect({ errcode: res.errcode, errmsg: res.errmsg }).toEqual({ errcode: ErrCode.FORBIDDEN, errmsg: TEAM_UI_MSG.moduleMissing('打印') })
  })

  it('on the free tier refuses even the administrator (打印 is a VIP module)', async () => {
    await w.t.db.kysely.updateTable('groups').set({ level: 0 }).where('id', '=', w.groupId).execute()
    const res = await w.call('/api/print/start', { layer_ids: [L.red], options: BARE, format: 'png' }, w.owner)
    expect({ errcode: res.errcode, errmsg: res.errmsg }).toEqual({ errcode: ErrCode.FORBIDDEN, errmsg: TEAM_UI_MSG.moduleLocked('打印') })
  })

  it("does not tell another user how someone's job goes", async () => {
    const { job_id } = ok(await w.call('/api/print/start', { layer_ids: [L.red], options: BARE, format: 'png' }, printer))
    const res = await w.call('/api/print/progress', { job_id }, w.owner)
    expect({ errcode: res.errcode, errmsg: res.errmsg }).toEqual({ errcode: ErrCode.NOT_FOUND, errmsg: PRINT_MSG.jobNotFound })
  })

  it('refuses a print of more than 100,000 markers with what to do', async () => {
    await w.t.db.kysely
      .updateTable('layers')
      .set({ marker_count: PRINT_MAX_MARKERS + 1 })
      .where('id', '=', L.red)
      .execute()
    const res = await w.call('/api/print/start', { layer_ids: [L.red], options: BARE, format: 'png' }, w.owner)
    expect({ errcode: res.errcode, errmsg: res.errmsg }).toEqual({ errcode: ErrCode.LIMIT_REACHED, errmsg: PRINT_MSG.tooManyMarkers(PRINT_MAX_MARKERS) })
  })

  it('refuses a title longer than the sheet holds, and a view that is not a box', async () => {
    const long = await w.call('/api/print/start', { layer_ids: [L.red], options: { ...BARE, title: '长'.repeat(41) }, format: 'png' }, w.owner)
    expect(long.errmsg).toBe(PRINT_MSG.titleTooLong(40))
    const bad = await w.call('/api/print/start', { layer_ids: [L.red], view: { west: 116.4, south: 39.9, east: 116.3, north: 39.96 }, options: BARE, format: 'png' }, w.owner)
    expect(bad.errmsg).toBe(PRINT_MSG.viewInvalid)
  })
})

describe('the queue', () => {
  beforeEach(() => world())

  it("takes turns between groups: another team's print waits for one of this team's, not for all of them", async () => {
    const other = await w.stranger('13800000009', '别队')
    const otherLayer = await w.layer('别队图层', 1, 0, other)
    await marker(otherLayer, '别队点', 0, '116.35,39.93', { color: '#FF0000' }, other)
    const start = async (auth: Auth, layer: number) => ok(await w.call('/api/print/start', { layer_ids: [layer], options: BARE, format: 'png' }, auth)).job_id as string
    const ours = [await start(w.owner, L.red), await start(w.owner, L.red), await start(w.owner, L.red)]
    const theirs = await start(other, otherLayer)
    const ahead = async (auth: Auth, job_id: string) => ok(await w.call<PrintProgress>('/api/print/progress', { job_id }, auth))
    // Ours first is running; then our second and their first take turns, then our third.
    expect(await ahead(w.owner, ours[0])).toMatchObject({ state: 'running', ahead: 0 })
    expect(await ahead(w.owner, ours[1])).toMatchObject({ state: 'queued', ahead: 1 })
    expect(await ahead(other, theirs)).toMatchObject({ state: 'queued', ahead: 2 })
    expect(await ahead(w.owner, ours[2])).toMatchObject({ state: 'queued', ahead: 3 })
  })

  it('refuses a fourth print of one user while three are waiting, with what to do', async () => {
    for (let i = 0; i < 3; i++) ok(await w.call('/api/print/start', { layer_ids: [L.red], options: BARE, format: 'png' }, w.owner))
    const res = await w.call('/api/print/start', { layer_ids: [L.red], options: BARE, format: 'png' }, w.owner)
    expect({ errcode: res.errcode, errmsg: res.errmsg }).toEqual({ errcode: ErrCode.RATE_LIMITED, errmsg: PRINT_MSG.jobBusy(3) })
  })
})

describe('the printed picture (PNG)', () => {
  beforeEach(() => world())

  it("draws each marker in its colour where it lies, leaves the polygon's hole empty, and leaves out the layer the member may not read", async () => {
    const { progress, bytes } = await printed(printer, { layer_ids: [L.red, L.area, L.secret], view: VIEW, options: BARE, format: 'png' })
    expect(progress.filename).toBe('片区图_2025-06-01.png')
    const png = PNG.sync.read(bytes)
    expect({ width: png.width, height: png.height }).toEqual({ width: 1754, height: 1240 })
    const red = at(116.33, 39.93)
    expect(pixel(png, red.x, red.y)).toEqual([255, 0, 0])
    // In the area's ring: blue. In its hole: the map's plain background.
    const ring = at(116.365, 39.93)
    expect(pixel(png, ring.x, ring.y)).toEqual([0, 0, 255])
    const hole = at(116.375, 39.93)
    expect(pixel(png, hole.x, hole.y)).toEqual([0xf2, 0xf5, 0xf8])
    // The secret layer's green point is not drawn for this member.
    const secret = at(116.31, 39.95)
    expect(pixel(png, secret.x, secret.y)).toEqual([0xf2, 0xf5, 0xf8])
  })

  it("draws a point with an uploaded icon in that icon's picture", async () => {
    // A world of its own, with a file storage this test can put an icon in.
    await w.close()
    const files = temporaryStorage()
    afterClose.push(() => files.dispose())
    {
      await world({ storage: files.storage })
      const key = `${w.groupId}/${'a'.repeat(32)}.png`
      const icon = new PNG({ width: 64, height: 64 })
      for (let i = 0; i < icon.data.length; i += 4) icon.data.set([255, 125, 0, 255], i)
      await files.storage.put(key, PNG.sync.write(icon), 'image/png')
      await marker(L.red, '加油站', 0, '116.37,39.95', { color: '#FF0000', icon: `/files/${key}` })
      const { bytes } = await printed(w.owner, { layer_ids: [L.red], view: VIEW, options: BARE, format: 'png' })
      const png = PNG.sync.read(bytes)
      const spot = at(116.37, 39.95)
      expect(pixel(png, spot.x, spot.y)).toEqual([255, 125, 0])
      // The point without an icon keeps its pin.
      const red = at(116.33, 39.93)
      expect(pixel(png, red.x, red.y)).toEqual([255, 0, 0])
    }
  })

  it("draws a point with an uploaded GIF icon in that icon's first frame, as uploads may be GIFs", async () => {
    await w.close()
    const files = temporaryStorage()
    afterClose.push(() => files.dispose())
    {
      await world({ storage: files.storage })
      const key = `${w.groupId}/${'b'.repeat(32)}.gif`
      // A 32×32 GIF of one colour (palette index 1 = #2080C0) written by the same library's encoder.
      const out = Buffer.alloc(4096)
      const writer = new GifWriter(out, 32, 32, { palette: [0x000000, 0x2080c0] })
      writer.addFrame(0, 0, 32, 32, new Array(32 * 32).fill(1))
      await files.storage.put(key, out.subarray(0, writer.end()), 'image/gif')
      await marker(L.red, '书店', 0, '116.37,39.95', { color: '#FF0000', icon: `/files/${key}` })
      const { bytes } = await printed(w.owner, { layer_ids: [L.red], view: VIEW, options: BARE, format: 'png' })
      const png = PNG.sync.read(bytes)
      const spot = at(116.37, 39.95)
      expect(pixel(png, spot.x, spot.y)).toEqual([0x20, 0x80, 0xc0])
    }
  })

  it('keeps the pin of a point whose icon file is not a picture it can read', async () => {
    await w.close()
    const files = temporaryStorage()
    afterClose.push(() => files.dispose())
    {
      await world({ storage: files.storage })
      const key = `${w.groupId}/${'c'.repeat(32)}.gif`
      await files.storage.put(key, Buffer.from('GIF89a broken'), 'image/gif')
      await marker(L.red, '坏图', 0, '116.37,39.95', { color: '#FF0000', icon: `/files/${key}` })
      const { bytes } = await printed(w.owner, { layer_ids: [L.red], view: VIEW, options: BARE, format: 'png' })
      const png = PNG.sync.read(bytes)
      const spot = at(116.37, 39.95)
      expect(pixel(png, spot.x, spot.y)).toEqual([255, 0, 0])
    }
  })

  it('draws the secret layer for the administrator, who may read it', async () => {
    const { bytes } = await printed(w.owner, { layer_ids: [L.secret], view: VIEW, options: BARE, format: 'png' })
    const png = PNG.sync.read(bytes)
    const secret = at(116.31, 39.95)
    expect(pixel(png, secret.x, secret.y)).toEqual([0, 255, 0])
  })

  it('draws a preview of the same sheet, small', async () => {
    const { bytes } = await printed(printer, { layer_ids: [L.red], view: VIEW, options: BARE, format: 'pdf', preview: true })
    const png = PNG.sync.read(bytes)
    expect(png.width).toBeLessThan(600)
    expect(png.width / png.height).toBeCloseTo(297 / 210, 1)
  })
})

describe('the print of a shared view', () => {
  beforeEach(() => world())

  const shareOf = async (fields: Record<string, unknown>) => ok(await w.call<string>('/api/share/save', shareBody(fields), w.owner))

  /** A public print, no session: polled by its job id alone. */
  async function printedShared(fields: Record<string, unknown>): Promise<Buffer> {
    const { job_id } = ok(await w.t.call('/api/print/share/start', fields))
    for (let i = 0; i < 600; i++) {
      const p = ok(await w.t.call<PrintProgress>('/api/print/share/progress', { job_id }))
      if (p.state === 'done') return (await w.t.app.inject({ method: 'GET', url: p.url! })).rawPayload
      if (p.state === 'failed') throw new Error(p.error)
      await new Promise((r) => setTimeout(r, 50))
    }
    throw new Error('print did not finish')
  }

  it('draws what the share shows and nothing else, for anybody with the link', async () => {
    const id = await shareOf({ type: 1, data_ids: [L.red] })
    const png = PNG.sync.read(await printedShared({ share_id: id, layer_ids: [L.red, L.area, L.secret], view: VIEW, options: BARE, format: 'png' }))
    const red = at(116.33, 39.93)
    expect(pixel(png, red.x, red.y)).toEqual([255, 0, 0])
    // The area layer and the secret layer are not in the share.
    const ring = at(116.365, 39.93)
    expect(pixel(png, ring.x, ring.y)).toEqual([0xf2, 0xf5, 0xf8])
    const secret = at(116.31, 39.95)
    expect(pixel(png, secret.x, secret.y)).toEqual([0xf2, 0xf5, 0xf8])
  })

  it('refuses a password share without its proof, as the share view does', async () => {
    const id = await shareOf({ type: 1, data_ids: [L.red], need_pwd: true, pwd: '1234' })
    const res = await w.t.call('/api/print/share/start', { share_id: id, options: BARE, format: 'png' })
    expect({ errcode: res.errcode, errmsg: res.errmsg }).toEqual({ errcode: ErrCode.FORBIDDEN, errmsg: SHARE_MSG.pwdNeeded })
  })

  it("refuses when the sharing team's tier does not hold 打印", async () => {
    const id = await shareOf({ type: 1, data_ids: [L.red] })
    await w.t.db.kysely.updateTable('groups').set({ level: 0 }).where('id', '=', w.groupId).execute()
    const res = await w.t.call('/api/print/share/start', { share_id: id, options: BARE, format: 'png' })
    expect({ errcode: res.errcode, errmsg: res.errmsg }).toEqual({ errcode: ErrCode.FORBIDDEN, errmsg: TEAM_UI_MSG.moduleLocked('打印') })
  })
})

describe('the printed PDF', () => {
  beforeEach(() => world())

  it("opens in poppler with A3's size in points, the title, the note and the team's name as text, and the font embedded", async () => {
    const options = { ...DEFAULT_PRINT_OPTIONS, paper: 'A3', orientation: 'portrait', title: '客户分布图', note: '周一例会用' }
    const { progress, bytes } = await printed(printer, { layer_ids: [L.red, L.area], options, format: 'pdf' })
    expect(progress.filename).toBe('客户分布图_2025-06-01.pdf')
    withPdf(bytes, (file) => {
      const info = execFileSync('pdfinfo', [file]).toString()
      expect(info).toMatch(/Page size:\s+841\.89 x 1190\.55 pts \(A3\)/)
      expect(info).toMatch(/Pages:\s+1/)
      const text = execFileSync('pdftotext', [file, '-']).toString()
      for (const words of ['客户分布图', '周一例会用', '勘察队', '2025-06-01', '图例', '客户', '片区', PRINT_MSG.noBasemap]) expect(text).toContain(words)
      expect(execFileSync('pdffonts', [file]).toString()).toMatch(/\+WenQuanYiZenHei\s+CID TrueType\s+Identity-H\s+yes yes/)
    })
  })
})

describe('the base map', () => {
  /** A 256-px tile of one colour. */
  function tile(rgb: [number, number, number]): Buffer {
    const png = new PNG({ width: 256, height: 256 })
    for (let i = 0; i < png.data.length; i += 4) png.data.set([...rgb, 255], i)
    return PNG.sync.write(png)
  }
  const source = { url: 'https://tiles.example.cn/{z}/{x}/{y}.png', attribution: '© 测绘底图', reviewNo: 'GS(2025)1234号', datum: 'gcj02' as const }

  it('comes from the configured print source, with its attribution and 审图号 on the sheet', async () => {
    const asked: string[] = []
    const green = tile([200, 230, 200])
    const fetch = async (url: string) => {
      asked.push(url)
      return { ok: true, headers: { get: () => 'image/png' }, arrayBuffer: async () => green.buffer.slice(green.byteOffset, green.byteOffset + green.byteLength) as ArrayBuffer }
    }
    await world({ printTiles: source, printFetch: fetch })
    const { bytes } = await printed(printer, { layer_ids: [L.red], view: VIEW, options: BARE, format: 'png' })
    expect(asked.length).toBeGreaterThan(0)
    expect(asked.every((u) => u.startsWith('https://tiles.example.cn/'))).toBe(true)
    const png = PNG.sync.read(bytes)
    const empty = at(116.35, 39.955)
    expect(pixel(png, empty.x, empty.y)).toEqual([200, 230, 200])
    const pdf = await printed(printer, { layer_ids: [L.red], view: VIEW, options: BARE, format: 'pdf' })
    withPdf(pdf.bytes, (file) => {
      const text = execFileSync('pdftotext', [file, '-']).toString()
      expect(text).toContain('审图号：GS(2025)1234号')
      expect(text).not.toContain(PRINT_MSG.noBasemap)
    })
  })

  it('when its tiles cannot be reached, prints on a plain background that says 无底图', async () => {
    const fetch = async () => {
      throw new Error('ETIMEDOUT')
    }
    await world({ printTiles: source, printFetch: fetch })
    const { progress, bytes } = await printed(printer, { layer_ids: [L.red], view: VIEW, options: BARE, format: 'pdf' })
    expect(progress.state).toBe('done')
    withPdf(bytes, (file) => {
      const text = execFileSync('pdftotext', [file, '-']).toString()
      expect(text).toContain(PRINT_MSG.noBasemap)
      expect(text).not.toContain('审图号')
    })
  })
})
