/**
 * The check-in client: CheckInDraft locates, asks the server for the ticket of its target
 * (a refusal such as "out of range" shows the server's message), keeps the watermarked photos and
 * the remark, uploads the photos as type 'sign' and saves; SignStore lists check-ins by scope
 * (SPEC 3 "sign list": managers and sign_list holders see all) with paging and filters.
 */
import type { SignRecord, SignTicket } from '../../types/signs'
import { CHECKIN_MSG } from '../../src/domain/checkinMessages'
import { PERM } from '../../src/domain/permissions'
import { SIGN_PHOTOS_MAX, SIGN_REMARK_MAX } from '../../src/domain/sign'
import { LocationError, type GeoPlatform } from '../../src/platform/location/types'
import { memoryOffline, type MemoryOffline } from '../../src/platform/offline/memory'
import type { CapturedPhoto } from '../../src/platform/camera/types'
import type { UploadSender } from '../../src/platform/upload/types'
import { SIGN_PAGE_SIZE } from '../../src/stores/SignStore'
import { buildLogin, fail, makeRoot, ok, type Handler } from '../support/fakes'

const HERE = { lng: 116.397428, lat: 39.90923, accuracy: 10 }
const FUTURE = new Date(Date.now() + 10 * 60_000).toISOString()

function buildTicket(over: Partial<SignTicket> = {}): SignTicket {
  return {
    ticket: 'tk-1',
    time: '2026-11-22T08:00:05.000Z',
    expires_at: FUTURE,
    code: '1A2B3C4D',
    user: { id: 7, nickname: '小王' },
    lng: HERE.lng,
    lat: HERE.lat,
    target: { kind: 'marker', marker_id: 11, task_id: null, name: '客户甲', lng: 116.3975, lat: 39.9093 },
    distance: 12,
    radius: 300,
    ...over,
  }
}

function buildRecord(over: Partial<SignRecord> = {}): SignRecord {
  return {
    id: 1,
    code: '1A2B3C4D',
    user: { id: 7, nickname: '小王' },
    time: '2026-11-22T08:00:05.000Z',
    lng: HERE.lng,
    lat: HERE.lat,
    addr: '北京市东城区',
    target: { kind: 'marker', marker_id: 11, task_id: null, name: '客户甲', lng: 116.3975, lat: 39.9093 },
    distance: 12,
    radius: 300,
    photos: [{ url: '/uploads/3/a.jpg', sha256: 'ab' }],
    remark: '',
    verified: true,
    verify_failure: null,
    ...over,
  }
}

const photo = (n: number): CapturedPhoto => ({ path: `blob:photo-${n}`, width: 1560, height: 2576, fileName: `sign_${n}.jpg` })

async function signedIn(handlers: Record<string, Handler> = {}, opts: { modules?: string[]; admin?: boolean; manager?: boolean; geo?: Partial<GeoPlatform>; offline?: MemoryOffline } = {}) {
  const login = buildLogin({ modules: (opts.modules ?? [PERM.MODULE_MAP]).map((id) => ({ id })), is_manager: !!opts.manager })
  login.is_admin = !!opts.admin
  const made = makeRoot(
    { '/api/user/login': () => ok(login), ...handlers },
    { geo: { locate: async () => HERE, reverseGeocode: async () => '北京市东城区东华门街道', ...opts.geo }, offline: opts.offline },
  )
  expect(await made.root.session.login('13800138000', '123456')).toBe(true)
  made.root.groupRefresh.stop()
  made.calls.length = 0
  return made
}

const sent = (calls: { path: string; body: any }[], path: string) => calls.filter((c) => c.path === path).map(({ body: { header: _h, ...rest } }) => rest)
const texts = (root: { app: { notices: { text: string }[] } }) => root.app.notices.map((n) => n.text)

describe('CheckInDraft: position and ticket', () => {
  it('locates, reads the address and gets the ticket of the target; the watermark shows its facts', async () => {
    const { root, calls } = await signedIn({ '/api/sign/ticket': () => ok(buildTicket()) })
    expect(await root.sign.draft.start({ marker_id: 11 })).toBe(true)
    expect(sent(calls, '/api/sign/ticket')).toEqual([{ lng: HERE.lng, lat: HERE.lat, marker_id: 11 }])
    const d = root.sign.draft
    expect(d.phase).toBe('ready')
    expect(d.addr).toBe('北京市东城区东华门街道')
    expect(d.watermark?.lines).toEqual(['时间 2026-11-22 16:00:05', '地点 北京市东城区东华门街道', '坐标 116.397428, 39.909230', '签到人 小王', '签到点 客户甲（距离 12 米）', '校验码 1A2B3C4D'])
  })

  it("a check-in out of range shows the server's message in the sheet, not as a notice, and offers no photo", async () => {
    const refusal = '您不在签到范围内（距离 1520 米，签到范围 300 米）'
    const { root } = await signedIn({ '/api/sign/ticket': () => fail(1002, refusal) })
    expect(await root.sign.draft.start({ marker_id: 11 })).toBe(false)
    expect(root.sign.draft).toMatchObject({ phase: 'failed', problem: refusal, ticket: null })
    expect(root.sign.draft.canAddPhoto).toBe(false)
    expect(texts(root)).not.toContain(refusal)
  })

  it('a refused position says how to allow it; an unavailable one asks to try again; the server is not asked', async () => {
    const denied = await signedIn({}, { geo: { locate: async () => Promise.reject(new LocationError('denied')) } })
    expect(await denied.root.sign.draft.start({})).toBe(false)
    expect(denied.root.sign.draft.problem).toBe(CHECKIN_MSG.locateDenied)
    const lost = await signedIn({}, { geo: { locate: async () => Promise.reject(new LocationError('unavailable')) } })
    expect(await lost.root.sign.draft.start({})).toBe(false)
    expect(lost.root.sign.draft.problem).toBe(CHECKIN_MSG.locateFailed)
    expect(sent(denied.calls, '/api/sign/ticket')).toEqual([])
  })

  it('a geocoder failure leaves the address empty and the check-in goes on (free target)', async () => {
    const free = buildTicket({ target: { kind: 'free', marker_id: null, task_id: null, name: '', lng: null, lat: null }, distance: null })
    const { root, calls } = await signedIn({ '/api/sign/ticket': () => ok(free) }, { geo: { reverseGeocode: async () => Promise.reject(new Error('no map')) } })
    expect(await root.sign.draft.start({})).toBe(true)
    expect(sent(calls, '/api/sign/ticket')).toEqual([{ lng: HERE.lng, lat: HERE.lat }])
    expect(root.sign.draft.addr).toBe('')
    expect(root.sign.draft.watermark?.lines).toContain(CHECKIN_MSG.free)
  })

  it('an answer for an earlier start is dropped when another start came first', async () => {
    let release: (v: unknown) => void = () => undefined
    let n = 0
    const { root } = await signedIn({
      '/api/sign/ticket': (b) => {
        n++
        if (n === 1) return new Promise((r) => (release = () => r(ok(buildTicket({ code: 'OLD00000' })))))
        return ok(buildTicket({ code: 'NEW00000', target: { kind: 'task', marker_id: null, task_id: b.task_id, name: '巡检', lng: 1, lat: 1 } }))
      },
    })
    const first = root.sign.draft.start({ marker_id: 11 })
    await new Promise((r) => setTimeout(r, 0))
    expect(await root.sign.draft.start({ task_id: 5 })).toBe(true)
    release(null)
    expect(await first).toBe(false)
    expect(root.sign.draft.ticket?.code).toBe('NEW00000')
    expect(root.sign.draft.target).toEqual({ task_id: 5 })
  })
})

describe('CheckInDraft: photos and submit', () => {
  async function ready(handlers: Record<string, Handler> = {}, ticket: Partial<SignTicket> = {}) {
    const made = await signedIn({ '/api/sign/ticket': () => ok(buildTicket(ticket)), ...handlers })
    await made.root.sign.draft.start({ marker_id: 11 })
    made.calls.length = 0
    return made
  }

  it(`keeps at most ${SIGN_PHOTOS_MAX} photos; removing one hands it back to the camera platform`, async () => {
    const { root, released } = await ready()
    for (let i = 0; i < SIGN_PHOTOS_MAX; i++) expect(root.sign.draft.addPhoto(photo(i))).toBe(true)
    expect(root.sign.draft.addPhoto(photo(99))).toBe(false)
    expect(texts(root)).toContain(CHECKIN_MSG.photosMax)
    root.sign.draft.removePhoto(0)
    await new Promise((r) => setTimeout(r, 0))
    expect(root.sign.draft.photos.map((p) => p.path)).not.toContain('blob:photo-0')
    expect(released.map((p) => p.path)).toEqual(['blob:photo-0'])
  })

  it('uploads every photo as type sign with its file name, then saves the ticket, address, photo paths and remark', async () => {
    const record = buildRecord({
      photos: [
        { url: '/uploads/3/a.jpg', sha256: 'a' },
        { url: '/uploads/3/b.jpg', sha256: 'b' },
      ],
      remark: '已到门店',
    })
    const { root, calls } = await ready({ '/api/sign/save': () => ok(record), '/api/sign/getlist': () => ok({ list: [], total: 0 }) })
    await root.sign.open()
    root.sign.draft.addPhoto(photo(1))
    root.sign.draft.addPhoto(photo(2))
    root.sign.draft.setRemark('  已到门店 ')
    const uploads: [string, unknown, string | undefined][] = []
    const send: UploadSender = async (path, target, fileName) => {
      uploads.push([path, target, fileName])
      return { url: `http://api.test/uploads/3/${path.endsWith('1') ? 'a' : 'b'}.jpg`, size_kb: 200, name: fileName ?? '' }
    }
    expect(await root.sign.draft.submit(send)).toEqual(record)
    expect(uploads).toEqual([
      ['blob:photo-1', { url: 'http://api.test/api/system/upload', formData: { type: 'sign', userid: '7', groupid: '3', token: 'tok-7' } }, 'sign_1.jpg'],
      ['blob:photo-2', { url: 'http://api.test/api/system/upload', formData: { type: 'sign', userid: '7', groupid: '3', token: 'tok-7' } }, 'sign_2.jpg'],
    ])
    expect(sent(calls, '/api/sign/save')).toEqual([{ ticket: 'tk-1', addr: '北京市东城区东华门街道', photos: ['/uploads/3/a.jpg', '/uploads/3/b.jpg'], remark: '已到门店' }])
    expect(texts(root)).toContain(CHECKIN_MSG.saved)
    // the new record tops the list, and the draft is empty again
    expect(root.sign.list.map((r) => r.id)).toEqual([record.id])
    expect(root.sign.total).toBe(1)
    expect(root.sign.draft).toMatchObject({ phase: 'idle', ticket: null, photos: [], remark: '' })
  })

  it('a task check-in that needs proof refuses to submit without a photo and calls nothing', async () => {
    const { root, calls } = await ready()
    expect(await root.sign.draft.submit(async () => Promise.reject(new Error('no')), true)).toBeNull()
    expect(texts(root)).toContain(CHECKIN_MSG.photoRequired)
    expect(calls).toEqual([])
  })

  it('takes 请至少拍摄一张照片 away once a photo is added', async () => {
    const { root } = await ready()
    expect(await root.sign.draft.submit(async () => Promise.reject(new Error('no')), true)).toBeNull()
    expect(root.app.currentNotice?.text).toBe(CHECKIN_MSG.photoRequired)
    root.sign.draft.setRemark('到了')
    expect(root.app.currentNotice?.text).toBe(CHECKIN_MSG.photoRequired)
    root.sign.draft.addPhoto(photo(1))
    expect(root.app.currentNotice).toBeNull()
  })

  it(`a remark over ${SIGN_REMARK_MAX} characters is refused before any upload`, async () => {
    const { root, calls } = await ready()
    root.sign.draft.setRemark('字'.repeat(SIGN_REMARK_MAX + 1))
    expect(await root.sign.draft.submit(async () => Promise.reject(new Error('no')))).toBeNull()
    expect(texts(root)).toContain(CHECKIN_MSG.remarkTooLong)
    expect(calls).toEqual([])
  })

  it('an expired ticket is not sent: the user is asked to locate again', async () => {
    const { root, calls } = await ready({}, { expires_at: new Date(Date.now() - 1000).toISOString() })
    expect(await root.sign.draft.submit(async () => Promise.reject(new Error('no')))).toBeNull()
    expect(texts(root)).toContain(CHECKIN_MSG.ticketExpired)
    expect(root.sign.draft.ticket).toBeNull()
    expect(calls).toEqual([])
  })

  it('a failed upload stops before saving and keeps the photos for another try', async () => {
    const { root, calls } = await ready({ '/api/sign/save': () => ok(buildRecord()) })
    root.sign.draft.addPhoto(photo(1))
    const { ApiError } = await import('../../src/api/errors')
    expect(await root.sign.draft.submit(async () => Promise.reject(new ApiError('network', '网络错误，请检查设备网络')))).toBeNull()
    expect(texts(root)).toContain('网络错误，请检查设备网络')
    expect(sent(calls, '/api/sign/save')).toEqual([])
    expect(root.sign.draft.photos).toHaveLength(1)
    expect(root.sign.draft.submitting).toBe(false)
  })

  it("a refused save shows the server's message and keeps the draft", async () => {
    const { root } = await ready({ '/api/sign/save': () => fail(1002, '签到已超时，请重新签到') })
    expect(await root.sign.draft.submit(async () => ({ url: '/x', size_kb: 1, name: '' }))).toBeNull()
    expect(texts(root)).toContain('签到已超时，请重新签到')
    expect(root.sign.draft.ticket?.ticket).toBe('tk-1')
  })
})

describe('CheckInDraft: online only', () => {
  it('without network the sheet says so at once: no position is asked, no ticket, and submitting is refused', async () => {
    const offline = memoryOffline({ online: false })
    let located = 0
    const { root, calls } = await signedIn(
      { '/api/sign/ticket': () => ok(buildTicket()) },
      {
        offline,
        geo: {
          locate: async () => {
            located++
            return HERE
          },
        },
      },
    )
    const d = root.sign.draft
    expect(await d.start({ marker_id: 11 })).toBe(false)
    expect(d.phase).toBe('offline')
    expect(d.online).toBe(false)
    expect(d.problem).toBe('签到需要网络，请联网后再签到')
    expect(located).toBe(0)
    expect(await d.submit(async () => ({ url: '/x', size_kb: 1, name: '' }))).toBeNull()
    expect(texts(root)).toContain(CHECKIN_MSG.needsNetwork)
    expect(calls).toEqual([])
  })

  it('a check-in that waited for the network starts by itself when the network returns', async () => {
    const offline = memoryOffline({ online: false })
    const { root, calls } = await signedIn({ '/api/sign/ticket': () => ok(buildTicket()) }, { offline })
    const d = root.sign.draft
    await d.start({ marker_id: 11 })
    offline.network.set(true)
    await waitFor(() => d.phase === 'ready')
    expect(d.online).toBe(true)
    expect(sent(calls, '/api/sign/ticket')).toEqual([{ lng: HERE.lng, lat: HERE.lat, marker_id: 11 }])
    expect(d.check(false)).toBeNull()
  })

  it('losing the network after the ticket keeps the photos but refuses to submit until it returns', async () => {
    const offline = memoryOffline()
    const { root, calls } = await signedIn({ '/api/sign/ticket': () => ok(buildTicket()), '/api/sign/save': () => ok(buildRecord()) }, { offline })
    const d = root.sign.draft
    expect(await d.start({ marker_id: 11 })).toBe(true)
    d.addPhoto(photo(1))
    calls.length = 0
    offline.network.set(false)
    expect(d.online).toBe(false)
    const uploads: string[] = []
    const send: UploadSender = async (path) => {
      uploads.push(path)
      return { url: '/uploads/3/a.jpg', size_kb: 1, name: 'a.jpg' }
    }
    expect(await d.submit(send)).toBeNull()
    expect(texts(root)).toContain(CHECKIN_MSG.needsNetwork)
    expect(uploads).toEqual([])
    expect(d.photos).toHaveLength(1)
    offline.network.set(true)
    expect(d.phase).toBe('ready')
    expect(await d.submit(send)).not.toBeNull()
    expect(uploads).toEqual(['blob:photo-1'])
  })

  it('a ticket request that fails because the network went away waits for the network, not 无法获取当前位置', async () => {
    const offline = memoryOffline()
    const { root } = await signedIn(
      {
        '/api/sign/ticket': () => {
          // the request itself fails as it does when the signal drops mid-way
          offline.network.set(false)
          throw new Error('net::ERR_INTERNET_DISCONNECTED')
        },
      },
      { offline },
    )
    const d = root.sign.draft
    expect(await d.start({ marker_id: 11 })).toBe(false)
    expect(d.phase).toBe('offline')
    expect(d.problem).toBe(CHECKIN_MSG.needsNetwork)
  })

  it('closing the sheet stops following the network', async () => {
    const offline = memoryOffline({ online: false })
    const { root, calls } = await signedIn({ '/api/sign/ticket': () => ok(buildTicket()) }, { offline })
    await root.sign.draft.start({ marker_id: 11 })
    root.sign.draft.clear()
    offline.network.set(true)
    await new Promise((r) => setTimeout(r, 0))
    expect(root.sign.draft.phase).toBe('idle')
    expect(calls).toEqual([])
  })
})

async function waitFor(cond: () => boolean): Promise<void> {
  for (let i = 0; i < 50 && !cond(); i++) await new Promise((r) => setTimeout(r, 0))
  expect(cond()).toBe(true)
}

describe('SignStore: the sign list', () => {
  it('SPEC 3: members see their own; managers, administrators and sign_list holders may see all', async () => {
    expect((await signedIn()).root.sign.canSeeAll).toBe(false)
    expect((await signedIn({}, { manager: true })).root.sign.canSeeAll).toBe(true)
    expect((await signedIn({}, { admin: true })).root.sign.canSeeAll).toBe(true)
    expect((await signedIn({}, { modules: [PERM.MODULE_MAP, PERM.SIGN_LIST] })).root.sign.canSeeAll).toBe(true)
  })

  it('asking for all without the right lists the own check-ins', async () => {
    const { root, calls } = await signedIn({ '/api/sign/getlist': () => ok({ list: [], total: 0 }) })
    await root.sign.open({}, 'all')
    expect(root.sign.scope).toBe('mine')
    expect(sent(calls, '/api/sign/getlist')).toEqual([{ scope: 'mine', pageindex: 1, pagesize: SIGN_PAGE_SIZE }])
  })

  it('pages newest first, switches scope, and filters by task or marker', async () => {
    const { root, calls } = await signedIn(
      {
        '/api/sign/getlist': (b) =>
          ok(
            b.scope === 'all'
              ? { list: [buildRecord({ id: 9, user: { id: 8, nickname: '小李' } })], total: 1 }
              : b.pageindex === 1
                ? { list: [buildRecord({ id: 3 })], total: 2 }
                : { list: [buildRecord({ id: 2 })], total: 2 },
          ),
      },
      { modules: [PERM.SIGN_LIST] },
    )
    expect(await root.sign.open({ taskId: 5 })).toBe(true)
    expect(root.sign.hasMore).toBe(true)
    await root.sign.loadMore()
    expect(root.sign.list.map((r) => r.id)).toEqual([3, 2])
    expect(root.sign.hasMore).toBe(false)
    expect(await root.sign.loadMore()).toBe(false)
    await root.sign.setScope('all')
    expect(root.sign.list.map((r) => r.user.nickname)).toEqual(['小李'])
    await root.sign.open({ markerId: 11 }, 'mine')
    expect(sent(calls, '/api/sign/getlist')).toEqual([
      { scope: 'mine', task_id: 5, pageindex: 1, pagesize: SIGN_PAGE_SIZE },
      { scope: 'mine', task_id: 5, pageindex: 2, pagesize: SIGN_PAGE_SIZE },
      { scope: 'all', task_id: 5, pageindex: 1, pagesize: SIGN_PAGE_SIZE },
      { scope: 'mine', marker_id: 11, pageindex: 1, pagesize: SIGN_PAGE_SIZE },
    ])
  })

  it('checks one record’s photo files on request and shows what the server found', async () => {
    const photos = [{ url: '/uploads/3/a.jpg', sha256: 'a'.repeat(64) }]
    const { root, calls } = await signedIn({
      '/api/sign/getlist': () => ok({ list: [buildRecord({ id: 3, photos }), buildRecord({ id: 2, photos })], total: 2 }),
      '/api/sign/getbyid': (b) => ok(buildRecord({ id: b.id as number, photos, verified: false, verify_failure: 'photo' })),
    })
    await root.sign.open()
    expect(root.sign.photosChecked.has(3)).toBe(false)
    expect(await root.sign.checkPhotos(3)).toBe(true)
    expect(sent(calls, '/api/sign/getbyid')).toEqual([{ id: 3 }])
    expect(root.sign.list.map((r) => [r.id, r.verified, r.verify_failure])).toEqual([
      [3, false, 'photo'],
      [2, true, null],
    ])
    expect([...root.sign.photosChecked]).toEqual([3])
    expect(root.sign.checkingId).toBeNull()
  })

  it('a page that arrives after the scope changed is dropped', async () => {
    let releaseMine: () => void = () => undefined
    const { root } = await signedIn(
      {
        '/api/sign/getlist': (b) =>
          b.scope === 'mine' ? new Promise((r) => (releaseMine = () => r(ok({ list: [buildRecord({ id: 1 })], total: 1 })))) : ok({ list: [buildRecord({ id: 9 })], total: 1 }),
      },
      { admin: true },
    )
    const mine = root.sign.open({}, 'mine')
    await new Promise((r) => setTimeout(r, 0))
    await root.sign.setScope('all')
    releaseMine()
    await mine
    expect(root.sign.list.map((r) => r.id)).toEqual([9])
  })

  it("a saved check-in of another task does not join a task's list; photos get the API host", async () => {
    const { root } = await signedIn({ '/api/sign/getlist': () => ok({ list: [], total: 0 }) })
    await root.sign.open({ taskId: 5 })
    root.sign.added(buildRecord({ id: 4 }))
    expect(root.sign.list).toEqual([])
    root.sign.added(buildRecord({ id: 5, target: { kind: 'task', marker_id: null, task_id: 5, name: '巡检', lng: null, lat: null } }))
    expect(root.sign.list.map((r) => r.id)).toEqual([5])
    expect(root.sign.photoUrl('/uploads/3/a.jpg')).toBe('http://api.test/uploads/3/a.jpg')
  })

  it('signing out forgets the list and the draft', async () => {
    const { root } = await signedIn({ '/api/sign/getlist': () => ok({ list: [buildRecord()], total: 1 }), '/api/sign/ticket': () => ok(buildTicket()) })
    await root.sign.open()
    await root.sign.draft.start({})
    root.sign.draft.addPhoto(photo(1))
    await root.session.logout()
    expect(root.sign.list).toEqual([])
    expect(root.sign.draft.ticket).toBeNull()
    expect(root.sign.draft.photos).toEqual([])
  })
})
