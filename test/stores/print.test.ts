/**
 * The print sheet's store (PrintStore): what opens it decides the subject, the area and the title;
 * a change of the options draws the preview again a moment later (the last one wins); 保存图片 and
 * 导出PDF run a job to the end and hand the file to the platform; a refused album shows SPEC 8's
 * permission dialog; the server's refusal is shown and nothing is saved.
 */
import { ErrCode } from '../../types/api'
import { PERM } from '../../src/domain/permissions'
import { PRINT_MSG } from '../../src/domain/printMessages'
import { PREVIEW_DELAY_MS, PRINT_POLL_MS } from '../../src/stores/PrintStore'
import { printStores } from '../../src/stores/printStores'
import { buildLogin, fail, makeRoot, ok, type Handler } from '../support/fakes'
import { buildLayer } from '../support/mapBuilders'

void printStores

const customers = buildLayer({ name: '客户', type: 1, show: true, marker_count: 12 })
const roads = buildLayer({ name: '道路', type: 2, show: false, marker_count: 3 })

async function signedIn(handlers: Record<string, Handler> = {}, opts: Parameters<typeof makeRoot>[1] = {}) {
  const login = buildLogin({ modules: [PERM.MODULE_MAP, PERM.MODULE_PRINT].map((id) => ({ id })) })
  let job = 0
  const made = makeRoot(
    {
      '/api/user/login': () => ok(login),
      '/api/layer/getlist': () => ok([customers, roads]),
      '/api/print/start': () => ok({ job_id: `job-${++job}-abcdefgh` }),
      '/api/print/progress': (body) => ok({ state: 'done', progress: 100, ahead: 0, url: `/api/print/file/${body.job_id}.png`, filename: '客户_2026-12-02.png' }),
      ...handlers,
    },
    opts,
  )
  expect(await made.root.session.login('13800138000', '123456')).toBe(true)
  made.root.groupRefresh.stop()
  await made.root.layers.load()
  made.calls.length = 0
  return made
}

const sent = (calls: { path: string; body: any }[], path: string) => calls.filter((c) => c.path === path).map(({ body: { header: _h, ...rest } }) => rest)

beforeEach(() => jest.useFakeTimers())
afterEach(() => jest.useRealTimers())

describe('opening the sheet', () => {
  it("from a layer's menu prints that layer fitted, titled with its name, and draws a preview", async () => {
    const { root, calls } = await signedIn()
    root.print.open({ layer: roads.id })
    await jest.advanceTimersByTimeAsync(0)
    expect(root.print.layerIds).toEqual([roads.id])
    expect(root.print.area).toBe('fit')
    expect(root.print.options.title).toBe('道路')
    expect(sent(calls, '/api/print/start')).toEqual([expect.objectContaining({ layer_ids: [roads.id], view: null, preview: true, options: expect.objectContaining({ title: '道路' }) })])
    expect(root.print.previewUrl).toBe('http://api.test/api/print/file/job-1-abcdefgh.png')
  })

  it("from the map's tools prints the map's view with the layers it shows", async () => {
    const { root, calls } = await signedIn()
    root.map.setView({ west: 116.3, south: 39.9, east: 116.4, north: 39.96, zoom: 13 })
    root.print.open({})
    await jest.advanceTimersByTimeAsync(0)
    expect(root.print.area).toBe('view')
    expect(sent(calls, '/api/print/start')[0]).toMatchObject({ layer_ids: [customers.id], view: { west: 116.3, south: 39.9, east: 116.4, north: 39.96 } })
  })

  it("from a route's detail prints the route with its name as the title", async () => {
    const { root, calls } = await signedIn()
    root.print.open({ route: 7, name: '周一拜访' })
    await jest.advanceTimersByTimeAsync(0)
    expect(sent(calls, '/api/print/start')[0]).toMatchObject({ layer_ids: [], route_id: 7, options: expect.objectContaining({ title: '周一拜访' }) })
  })
})

describe('the live preview', () => {
  it('is drawn again a moment after the last change, with the new paper and title', async () => {
    const { root, calls } = await signedIn()
    root.print.open({ layer: customers.id })
    await jest.advanceTimersByTimeAsync(0)
    calls.length = 0
    root.print.set('paper', 'A3')
    root.print.set('title', '客户分布')
    await jest.advanceTimersByTimeAsync(PREVIEW_DELAY_MS - 10)
    expect(sent(calls, '/api/print/start')).toEqual([])
    await jest.advanceTimersByTimeAsync(20)
    const starts = sent(calls, '/api/print/start')
    expect(starts).toHaveLength(1)
    expect(starts[0].options).toMatchObject({ paper: 'A3', title: '客户分布' })
    expect(root.print.previewUrl).toBe('http://api.test/api/print/file/job-2-abcdefgh.png')
  })

  it('says what is missing instead of asking the server when no layer is chosen', async () => {
    const { root, calls } = await signedIn()
    root.print.open({ layer: customers.id })
    await jest.advanceTimersByTimeAsync(0)
    calls.length = 0
    root.print.toggleLayer(customers.id)
    await jest.advanceTimersByTimeAsync(PREVIEW_DELAY_MS)
    expect(sent(calls, '/api/print/start')).toEqual([])
    expect(root.print.previewError).toBe(PRINT_MSG.layersRequired)
  })
})

describe('saving the picture and the PDF', () => {
  it('polls the job to the end, then saves the picture under its name', async () => {
    const saved: [string, string][] = []
    let polls = 0
    const { root } = await signedIn(
      {
        '/api/print/progress': (body) =>
          ++polls < 3
            ? ok({ state: 'running', progress: polls * 30, ahead: 0 })
            : ok({ state: 'done', progress: 100, ahead: 0, url: `/api/print/file/${body.job_id}.png`, filename: '客户_2026-12-02.png' }),
      },
      { print: { savePicture: async (url, name) => (saved.push([url, name]), 'saved') } },
    )
    root.print.open({ layer: customers.id })
    await jest.advanceTimersByTimeAsync(PRINT_POLL_MS * 3)
    polls = 0
    const making = root.print.make('png')
    await jest.advanceTimersByTimeAsync(0)
    expect(root.print.outputText).toBe(PRINT_MSG.drawing(30))
    await jest.advanceTimersByTimeAsync(PRINT_POLL_MS * 3)
    await making
    expect(saved).toEqual([['http://api.test/api/print/file/job-2-abcdefgh.png', '客户_2026-12-02.png']])
    expect(root.app.notices.map((n) => n.text)).toContain(PRINT_MSG.saved)
  })

  it('opens the PDF with the platform', async () => {
    const opened: string[] = []
    const { root, calls } = await signedIn(
      { '/api/print/progress': (body) => ok({ state: 'done', progress: 100, ahead: 0, url: `/api/print/file/${body.job_id}.pdf`, filename: '客户_2026-12-02.pdf' }) },
      { print: { openPdf: async (url) => (opened.push(url), 'opened') } },
    )
    root.print.open({ layer: customers.id })
    await jest.advanceTimersByTimeAsync(0)
    await root.print.make('pdf')
    expect(sent(calls, '/api/print/start').at(-1)).toMatchObject({ format: 'pdf' })
    expect(opened).toEqual(['http://api.test/api/print/file/job-2-abcdefgh.pdf'])
  })

  it("shows SPEC 8's permission dialog when the album is refused, and 去授权 opens the settings", async () => {
    let settings = 0
    const { root } = await signedIn({}, { print: { savePicture: async () => 'denied', openSettings: async () => (++settings, true) } })
    root.print.open({ layer: customers.id })
    await jest.advanceTimersByTimeAsync(0)
    await root.print.make('png')
    expect(root.print.albumDenied).toBe(true)
    await root.print.openAlbumSettings()
    expect(settings).toBe(1)
    expect(root.print.albumDenied).toBe(false)
  })

  it("shows the server's refusal and saves nothing", async () => {
    const saved: string[] = []
    const refused = await signedIn({ '/api/print/start': () => fail(ErrCode.LIMIT_REACHED, PRINT_MSG.tooManyMarkers(100000)) }, { print: { savePicture: async (url) => (saved.push(url), 'saved') } })
    refused.root.print.open({ layer: customers.id })
    await jest.advanceTimersByTimeAsync(0)
    await refused.root.print.make('png')
    expect(saved).toEqual([])
    expect(refused.root.app.notices.map((n) => n.text)).toContain(PRINT_MSG.tooManyMarkers(100000))
    expect(refused.root.print.output).toBeNull()
  })
})
