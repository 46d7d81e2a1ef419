/**
 * Check-in on the server (SignApi in types/signs.ts): "check in at the current position
 * within the group's sign radius (system_config.sign_radius, default 300 m) of a marker or a free
 * location; the server verifies the distance and time, stores the record (user, time, lng, lat,
 * address, photos) and lists it (sign list permission)", and beyond the SPEC: "a tampered photo or a
 * check-in outside the radius is detectable in the sign list" (server-issued code and HMAC signature
 * over the photos' hashes taken at check-in; the photo files re-hashed when a record is opened).
 */
import { TASK_MSG } from '../../src/domain/taskMessages'
import { ErrCode } from '../../types/api'
import type { SignRecord, SignTicket } from '../../types/signs'
import { PERM } from '../../src/domain/permissions'
import { SIGN_PHOTOS_MAX, SIGN_TICKET_TTL_S, markerSignPoint, signDistance } from '../../src/domain/sign'
import { SIGN_MSG } from '../../src/domain/signMessages'
import { insertSignOnce } from '../../server/src/db/signs'
import { storageOf } from '../../server/src/services/storage'
import { makeWorld, ok, type Person, type TeamWorld } from './teams-fixture'
import type { Auth } from './helpers'

let w: TeamWorld
/** A plain member who reads layer A only. */
let member: Person
let other: Person
let manager: Person
/** Holds the group-level sign_list through a role. */
let lister: Person
/** A user of another group (their own map). */
let outsider: Person
let layerA: number
let layerC: number
const m = { shop: 0, hidden: 0, road: 0, zone: 0 }

const SHOP = { lng: 116.397428, lat: 39.90923 }
/** About 222 m north of the shop. */
const NEAR = { lng: 116.397428, lat: 39.91123 }
/** About 445 m north of the shop. */
const FAR = { lng: 116.397428, lat: 39.91323 }

const JPEG = (fill: number) => Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(1500, fill)])

async function markerAt(layer_id: number, name: string, points: string, type = 0): Promise<number> {
  return ok(await w.call('/api/marker/save', { layer_id, name, type, points }, w.owner)).id
}

beforeEach(async () => {
  w = await makeWorld()
  member = await w.join('13800000001', '外勤甲')
  other = await w.join('13800000002', '外勤乙')
  manager = await w.join('13800000003', '经理')
  lister = await w.join('13800000004', '查看员')
  outsider = await w.stranger('13800000009', '外人')
  await w.makeManager(manager)
  const role = ok(await w.call('/api/role/save', { name: '签到查看' }, w.owner)).id
  ok(await w.call('/api/role/save/module', { role_id: role, module_ids: [PERM.SIGN_LIST] }, w.owner))
  ok(await w.call('/api/role/save/join', { role_id: role, user_ids: [lister.userid] }, w.owner))
  layerA = await w.layer('客户')
  layerC = await w.layer('机密')
  const lines = await w.layer('道路', 2)
  const areas = await w.layer('片区', 3)
  m.shop = await markerAt(layerA, '客户甲', `${SHOP.lng},${SHOP.lat}`)
  m.hidden = await markerAt(layerC, '机密点', `${SHOP.lng},${SHOP.lat}`)
  m.road = await markerAt(lines, '环路', '116.40,39.90|116.42,39.94', 1)
  m.zone = await markerAt(areas, '片区一', '116.39,39.90|116.41,39.90|116.41,39.92|116.39,39.92', 3)
  await w.grant(layerA, { user_id: member.userid }, [PERM.NOTE_LIST])
  await w.grant(layerA, { user_id: other.userid }, [PERM.NOTE_LIST])
  await w.grant(lines, { user_id: member.userid }, [PERM.NOTE_LIST])
  await w.grant(areas, { user_id: member.userid }, [PERM.NOTE_LIST])
})

afterEach(async () => {
  await w?.close()
})

const signRows = () => w.t.db.kysely.selectFrom('signs').selectAll().orderBy('id').execute()
const storage = () => storageOf(w.t.app, {})

function refused(res: { errcode: number; errmsg: string }, errcode: ErrCode, errmsg: string): void {
  expect({ errcode: res.errcode, errmsg: res.errmsg }).toEqual({ errcode, errmsg })
}

const ticket = (auth: Auth, fields: Record<string, unknown> = {}) => w.call<SignTicket>('/api/sign/ticket', { ...NEAR, ...fields }, auth)
const save = (auth: Auth, fields: Record<string, unknown>) => w.call<SignRecord>('/api/sign/save', { addr: '北京市东城区', photos: [], ...fields }, auth)

/** A ticket and its save in one go; fails the test when either is refused. */
async function checkIn(auth: Auth, target: Record<string, unknown> = {}, extra: Record<string, unknown> = {}): Promise<SignRecord> {
  const t = ok(await ticket(auth, target))
  return ok(await save(auth, { ticket: t.ticket, ...extra }))
}

function multipartBody(fields: Record<string, string>, data: Buffer) {
  const boundary = `----sign${Math.random().toString(16).slice(2)}`
  const chunks: Buffer[] = []
  for (const [name, value] of Object.entries(fields)) chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`))
  chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="photo.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`), data, Buffer.from('\r\n'))
  chunks.push(Buffer.from(`--${boundary}--\r\n`))
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } }
}

/** Uploads a photo as the watermark camera's sheet does (type 'sign'); returns its url. */
async function photo(auth: Auth, fill = 1): Promise<string> {
  const res = await w.t.app.inject({ method: 'POST', url: '/api/system/upload', ...multipartBody({ type: 'sign', userid: String(auth.userid), groupid: '', token: auth.token }, JPEG(fill)) })
  const body = res.json()
  if (body.header.errcode !== 0) throw new Error(`upload failed: ${body.header.errmsg}`)
  return body.data.url as string
}

const keyOf = (url: string) => url.slice('/files/'.length)

describe('/api/sign/ticket: the server measures the distance (SPEC 9 sign_radius, default 300 m)', () => {
  it('issues a ticket at a marker within the radius: server time, a 10-minute expiry, the code, the target and the distance', async () => {
    const t = ok(await ticket(member, { marker_id: m.shop }))
    expect(t).toMatchObject({
      code: expect.stringMatching(/^[0-9A-F]{8}$/),
      user: { id: member.userid, nickname: '外勤甲' },
      lng: NEAR.lng,
      lat: NEAR.lat,
      target: { kind: 'marker', marker_id: m.shop, task_id: null, name: '客户甲', lng: SHOP.lng, lat: SHOP.lat },
      distance: signDistance(NEAR, SHOP),
      radius: 300,
    })
    expect(t.time).toBe(w.t.clock.now().toISOString())
    expect(Date.parse(t.expires_at) - Date.parse(t.time)).toBe(SIGN_TICKET_TTL_S * 1000)
    expect(t.distance).toBeGreaterThan(200)
    expect(t.distance).toBeLessThan(300)
    expect(await signRows()).toHaveLength(0)
  })

  it('refuses a position outside the radius with the distance and the radius, and stores nothing', async () => {
    refused(await ticket(member, { marker_id: m.shop, ...FAR }), ErrCode.VALIDATION, SIGN_MSG.outOfRange(signDistance(FAR, SHOP), 300))
    expect(SIGN_MSG.outOfRange(445, 300)).toBe('当前位置距签到点445米，超出签到范围300米')
    expect(await signRows()).toHaveLength(0)
  })

  it('honours the radius of the system config', async () => {
    await w.t.db.kysely.updateTable('system_config').set({ sign_radius: 500 }).execute()
    expect(ok(await ticket(member, { marker_id: m.shop, ...FAR }))).toMatchObject({ radius: 500, distance: signDistance(FAR, SHOP) })
    await w.t.db.kysely.updateTable('system_config').set({ sign_radius: 100 }).execute()
    refused(await ticket(member, { marker_id: m.shop }), ErrCode.VALIDATION, SIGN_MSG.outOfRange(signDistance(NEAR, SHOP), 100))
  })

  it('makes a free check-in anywhere, with no target and no distance', async () => {
    const t = ok(await ticket(member, { lng: 121.47, lat: 31.23 }))
    expect(t).toMatchObject({ target: { kind: 'free', marker_id: null, task_id: null, name: '', lng: null, lat: null }, distance: null, radius: 300 })
  })

  it('measures a line or an area to the centre of its bounds (the point a route stops at)', async () => {
    const road = ok(await ticket(member, { marker_id: m.road, lng: 116.41, lat: 39.92 }))
    expect(road.target).toMatchObject({ lng: 116.41, lat: 39.92, name: '环路' })
    expect(road.distance).toBe(0)
    const zone = ok(await ticket(member, { marker_id: m.zone, lng: 116.4, lat: 39.91 }))
    expect(zone.target).toMatchObject(markerSignPoint(3, '116.39,39.90|116.41,39.90|116.41,39.92|116.39,39.92') as object)
  })

  it("refuses a marker the caller may not read, another group's marker and an unknown one alike", async () => {
    refused(await ticket(member, { marker_id: m.hidden }), ErrCode.NOT_FOUND, SIGN_MSG.markerNotFound)
    refused(await ticket(outsider, { marker_id: m.shop }), ErrCode.NOT_FOUND, SIGN_MSG.markerNotFound)
    refused(await ticket(member, { marker_id: 999_999 }), ErrCode.NOT_FOUND, SIGN_MSG.markerNotFound)
    // The administrator reads every layer.
    expect(ok(await ticket(w.owner, { marker_id: m.hidden })).target.name).toBe('机密点')
  })

  it('refuses a position that is not a real place, and a marker and a task at once', async () => {
    refused(await ticket(member, { lng: 0, lat: 0 }), ErrCode.VALIDATION, SIGN_MSG.positionInvalid)
    refused(await ticket(member, { lng: 200, lat: 39 }), ErrCode.VALIDATION, SIGN_MSG.positionInvalid)
    refused(await ticket(member, { lng: 116, lat: 91 }), ErrCode.VALIDATION, SIGN_MSG.positionInvalid)
    refused(await ticket(member, { lng: '116', lat: 39 }), ErrCode.VALIDATION, SIGN_MSG.positionInvalid)
    refused(await w.call('/api/sign/ticket', { lat: 39 }, member), ErrCode.VALIDATION, SIGN_MSG.positionInvalid)
    refused(await ticket(member, { marker_id: m.shop, task_id: 1 }), ErrCode.VALIDATION, SIGN_MSG.targetTwice)
  })

  it('needs a session', async () => {
    expect((await w.t.call('/api/sign/ticket', NEAR)).status).toBe(401)
  })
})

describe('tasks as targets (the tasks table of migration 0012)', () => {
  // Checking in for a task is for those who may complete it: the dispatch module and an assignee.
  beforeEach(async () => {
    const role = ok(await w.call('/api/role/save', { name: '外勤' }, w.owner)).id
    ok(await w.call('/api/role/save/module', { role_id: role, module_ids: [PERM.MODULE_MAP, PERM.MODULE_DISPATCH] }, w.owner))
    ok(await w.call('/api/role/save/join', { role_id: role, user_ids: [member.userid, other.userid] }, w.owner))
  })

  /** A task of the group assigned to `member`. */
  async function task(fields: Record<string, unknown>, groupId = w.groupId): Promise<number> {
    const at = w.t.clock.now().toISOString()
    const row = await w.t.db.kysely
      .insertInto('tasks')
      .values({
        group_id: groupId,
        creator_id: w.owner.userid,
        title: '巡检',
        content: '',
        marker_id: null,
        place_name: null,
        place_lng: null,
        place_lat: null,
        due_date: null,
        state: 'open',
        created_at: at,
        updated_at: at,
        done_at: null,
        done_by: null,
        done_sign_id: null,
        ...fields,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
    await w.t.db.kysely
      .insertInto('task_assignees')
      .values({ task_id: row.id, group_id: groupId, user_id: member.userid as number, department_id: 0 })
      .execute()
    return row.id
  }

  it('refuses someone the task is not assigned to (to them it does not exist)', async () => {
    const id = await task({ place_name: '东门', place_lng: SHOP.lng, place_lat: SHOP.lat })
    refused(await ticket(other, { task_id: id }), ErrCode.NOT_FOUND, TASK_MSG.notFound)
  })

  it("measures to the task's marker, whatever layers the caller reads", async () => {
    const id = await task({ marker_id: m.hidden })
    const t = ok(await ticket(member, { task_id: id }))
    expect(t).toMatchObject({ target: { kind: 'task', marker_id: m.hidden, task_id: id, name: '机密点', lng: SHOP.lng, lat: SHOP.lat }, distance: signDistance(NEAR, SHOP) })
    refused(await ticket(member, { task_id: id, ...FAR }), ErrCode.VALIDATION, SIGN_MSG.outOfRange(signDistance(FAR, SHOP), 300))
  })

  it("measures to the task's place, and makes a free-position task check-in for a task with neither", async () => {
    const placed = await task({ place_name: '东门', place_lng: SHOP.lng, place_lat: SHOP.lat })
    expect(ok(await ticket(member, { task_id: placed })).target).toEqual({ kind: 'task', marker_id: null, task_id: placed, name: '东门', lng: SHOP.lng, lat: SHOP.lat })
    const anywhere = await task({ title: '提交周报' })
    const t = ok(await ticket(member, { task_id: anywhere, lng: 121.47, lat: 31.23 }))
    expect(t).toMatchObject({ target: { kind: 'task', marker_id: null, task_id: anywhere, name: '提交周报', lng: null, lat: null }, distance: null })
    const record = ok(await save(member, { ticket: t.ticket }))
    expect(record.target).toEqual(t.target)
    expect(ok(await w.call('/api/sign/getlist', { task_id: anywhere }, member)).list.map((r: SignRecord) => r.id)).toEqual([record.id])
  })

  it("refuses a done task, another group's task and an unknown one", async () => {
    refused(await ticket(member, { task_id: await task({ state: 'done' }) }), ErrCode.VALIDATION, SIGN_MSG.taskDone)
    const outsiderGroup = ok(await w.call('/api/user/getinfo', {}, outsider)).user.select_groupid as number
    refused(await ticket(member, { task_id: await task({}, outsiderGroup) }), ErrCode.NOT_FOUND, SIGN_MSG.taskNotFound)
    refused(await ticket(member, { task_id: 424242 }), ErrCode.NOT_FOUND, SIGN_MSG.taskNotFound)
  })
})

describe('/api/sign/save: a ticket saves once, for its member, in time', () => {
  it('stores the record with the address, photos with their SHA-256, remark, and the ticket’s time, position, target and code', async () => {
    const t = ok(await ticket(member, { marker_id: m.shop }))
    const urls = [await photo(member, 1), await photo(member, 2)]
    w.t.clock.advance(60_000)
    const record = ok(await save(member, { ticket: t.ticket, addr: '  北京市东城区东长安街  ', photos: urls, remark: '门店已巡查' }))
    expect(record).toMatchObject({
      code: t.code,
      user: { id: member.userid, nickname: '外勤甲' },
      time: t.time,
      lng: NEAR.lng,
      lat: NEAR.lat,
      addr: '北京市东城区东长安街',
      target: t.target,
      distance: t.distance,
      radius: 300,
      remark: '门店已巡查',
      verified: true,
      verify_failure: null,
    })
    const { createHash } = await import('node:crypto')
    expect(record.photos).toEqual(
      urls.map((url, i) => ({
        url,
        sha256: createHash('sha256')
          .update(JPEG(i + 1))
          .digest('hex'),
      })),
    )
    const [row] = await signRows()
    expect(row).toMatchObject({
      id: record.id,
      group_id: w.groupId,
      user_id: member.userid,
      time: t.time,
      created_at: w.t.clock.now().toISOString(),
      signature: expect.stringMatching(/^[0-9a-f]{64}$/),
    })
    expect(ok(await w.call('/api/sign/getbyid', { id: record.id }, member))).toEqual(record)
  })

  it('refuses a ticket once it has expired on the server clock', async () => {
    const t = ok(await ticket(member))
    w.t.clock.advance(SIGN_TICKET_TTL_S * 1000 - 1)
    const inTime = ok(await ticket(member))
    ok(await save(member, { ticket: t.ticket }))
    w.t.clock.advance(SIGN_TICKET_TTL_S * 1000)
    refused(await save(member, { ticket: inTime.ticket }), ErrCode.EXPIRED, SIGN_MSG.ticketExpired(10))
    expect(SIGN_MSG.ticketExpired(10)).toBe('签到已超时（需在10分钟内提交），请重新签到')
    expect(await signRows()).toHaveLength(1)
  })

  it('refuses a ticket saved before, and of two saves at once keeps one and answers CONFLICT to the other', async () => {
    const t = ok(await ticket(member))
    ok(await save(member, { ticket: t.ticket }))
    refused(await save(member, { ticket: t.ticket }), ErrCode.CONFLICT, SIGN_MSG.ticketUsed)
    const racing = ok(await ticket(member))
    const results = await Promise.all([save(member, { ticket: racing.ticket }), save(member, { ticket: racing.ticket })])
    expect(results.map((r) => r.errcode).sort()).toEqual([ErrCode.OK, ErrCode.CONFLICT])
    expect(results.find((r) => r.errcode === ErrCode.CONFLICT)?.errmsg).toBe(SIGN_MSG.ticketUsed)
    expect(await signRows()).toHaveLength(2)
  })

  it('keeps one row per nonce in the database itself (the unique nonce decides a race the pre-check misses)', async () => {
    const record = await checkIn(member)
    const [row] = await signRows()
    const { id: _id, ...copy } = row
    expect(await insertSignOnce(w.t.db.kysely, { ...copy, addr: '另一份' })).toBeUndefined()
    expect((await signRows()).map((r) => [r.id, r.addr])).toEqual([[record.id, record.addr]])
  })

  it("refuses another member's ticket, and a ticket of another group", async () => {
    const t = ok(await ticket(member))
    refused(await save(other, { ticket: t.ticket }), ErrCode.FORBIDDEN, SIGN_MSG.ticketNotYours)
    refused(await save(outsider, { ticket: t.ticket }), ErrCode.FORBIDDEN, SIGN_MSG.ticketNotYours)
    expect(await signRows()).toHaveLength(0)
  })

  it('refuses a ticket changed in any way (one character of its fields or of its signature)', async () => {
    const t = ok(await ticket(member, { marker_id: m.shop }))
    const [payload, mac] = t.ticket.split('.')
    const flip = (s: string, i: number) => s.slice(0, i) + (s[i] === 'A' ? 'B' : 'A') + s.slice(i + 1)
    // A forged distance re-encoded: valid JSON, wrong signature.
    const fields = JSON.parse(Buffer.from(payload, 'base64url').toString())
    const forged = Buffer.from(JSON.stringify({ ...fields, lat: SHOP.lat, distance: 0 })).toString('base64url')
    for (const bad of [`${flip(payload, 10)}.${mac}`, `${payload}.${flip(mac, 5)}`, `${payload}.${flip(mac, mac.length - 1)}`, `${forged}.${mac}`, payload, 'x', `${payload}.${mac}.${mac}`]) {
      refused(await save(member, { ticket: bad }), ErrCode.VALIDATION, SIGN_MSG.ticketInvalid)
    }
    refused(await save(member, { ticket: '' }), ErrCode.VALIDATION, SIGN_MSG.ticketRequired)
    expect(await signRows()).toHaveLength(0)
    ok(await save(member, { ticket: t.ticket }))
  })

  it('refuses photos that are not uploads of the group, repeated photos, and more than SIGN_PHOTOS_MAX', async () => {
    const t = ok(await ticket(member))
    const foreign = await photo(outsider)
    refused(await save(member, { ticket: t.ticket, photos: [await photo(member), foreign] }), ErrCode.VALIDATION, SIGN_MSG.photoNotOfGroup)
    refused(await save(member, { ticket: t.ticket, photos: ['/files/1/0123456789abcdef0123456789abcdef.jpg'] }), ErrCode.VALIDATION, SIGN_MSG.photoNotOfGroup)
    const mine = await photo(member)
    refused(await save(member, { ticket: t.ticket, photos: [mine, mine] }), ErrCode.VALIDATION, SIGN_MSG.photoDuplicate)
    const ten = await Promise.all(Array.from({ length: SIGN_PHOTOS_MAX + 1 }, (_, i) => photo(member, i)))
    refused(await save(member, { ticket: t.ticket, photos: ten }), ErrCode.VALIDATION, SIGN_MSG.photosTooMany(9))
    expect(SIGN_MSG.photosTooMany(SIGN_PHOTOS_MAX)).toBe('最多上传9张照片')
    expect(await signRows()).toHaveLength(0)
    // A photo of a colleague in the same group is a file of the group.
    expect(ok(await save(member, { ticket: t.ticket, photos: [...ten.slice(0, 8), await photo(other)] })).photos).toHaveLength(9)
  })

  it('refuses a photo whose file is gone from storage', async () => {
    const t = ok(await ticket(member))
    const url = await photo(member)
    await storage().delete(keyOf(url))
    refused(await save(member, { ticket: t.ticket, photos: [url] }), ErrCode.VALIDATION, SIGN_MSG.photoMissing)
    expect(await signRows()).toHaveLength(0)
  })

  it('refuses a remark or an address that is too long', async () => {
    const t = ok(await ticket(member))
    refused(await save(member, { ticket: t.ticket, remark: '字'.repeat(201) }), ErrCode.VALIDATION, SIGN_MSG.remarkTooLong(200))
    refused(await save(member, { ticket: t.ticket, addr: '址'.repeat(201) }), ErrCode.VALIDATION, SIGN_MSG.addrTooLong(200))
    expect(ok(await save(member, { ticket: t.ticket, remark: '字'.repeat(200) })).remark).toHaveLength(200)
  })
})

describe('/api/sign/getlist and /getbyid: who sees what (SPEC 3 sign list)', () => {
  let mine: SignRecord
  let theirs: SignRecord

  beforeEach(async () => {
    mine = await checkIn(member, { marker_id: m.shop })
    w.t.clock.advance(60_000)
    theirs = await checkIn(other, { marker_id: m.shop })
  })

  const ids = (res: { data: { list: SignRecord[] } }) => res.data.list.map((r) => r.id)

  it("shows a member their own check-ins only ('mine' is the default) and refuses them 'all'", async () => {
    expect(ok(await w.call('/api/sign/getlist', {}, member))).toEqual({ list: [mine], total: 1 })
    expect(ids(await w.call('/api/sign/getlist', { scope: 'mine' }, other))).toEqual([theirs.id])
    refused(await w.call('/api/sign/getlist', { scope: 'all' }, member), ErrCode.FORBIDDEN, SIGN_MSG.listForbidden)
    refused(await w.call('/api/sign/getlist', { user_id: other.userid }, member), ErrCode.FORBIDDEN, SIGN_MSG.listForbidden)
    refused(await w.call('/api/sign/getbyid', { id: theirs.id }, member), ErrCode.NOT_FOUND, SIGN_MSG.notFound)
  })

  it("shows 'all' to the administrator, a manager and a holder of sign_list, newest first", async () => {
    for (const who of [w.owner, manager, lister]) {
      expect(ok(await w.call('/api/sign/getlist', { scope: 'all' }, who))).toEqual({ list: [theirs, mine], total: 2 })
      expect(ok(await w.call('/api/sign/getbyid', { id: mine.id }, who))).toEqual(mine)
    }
    // 'mine' is still their own.
    expect(ok(await w.call('/api/sign/getlist', {}, lister))).toEqual({ list: [], total: 0 })
  })

  it("answers NOT_FOUND for another group's check-in, exactly like an unknown id", async () => {
    refused(await w.call('/api/sign/getbyid', { id: mine.id }, outsider), ErrCode.NOT_FOUND, SIGN_MSG.notFound)
    refused(await w.call('/api/sign/getbyid', { id: 999_999 }, w.owner), ErrCode.NOT_FOUND, SIGN_MSG.notFound)
    expect(ok(await w.call('/api/sign/getlist', { scope: 'all' }, outsider))).toEqual({ list: [], total: 0 })
  })

  it('filters by member, marker, task and Shanghai calendar days, and pages', async () => {
    // 23:59 and 00:30 on either side of midnight in Shanghai (UTC+8).
    w.t.clock.set('2025-06-01T15:59:00.000Z')
    const lateFree = await checkIn(member)
    w.t.clock.set('2025-06-01T16:30:00.000Z')
    const nextDay = await checkIn(other)
    const all = (fields: Record<string, unknown>) => w.call('/api/sign/getlist', { scope: 'all', ...fields }, manager)
    expect(ids(await all({ user_id: member.userid }))).toEqual([lateFree.id, mine.id])
    expect(ids(await all({ marker_id: m.shop }))).toEqual([theirs.id, mine.id])
    expect(ids(await all({ date_from: '2025-06-01', date_to: '2025-06-01' }))).toEqual([lateFree.id, theirs.id, mine.id])
    expect(ids(await all({ date_from: '2025-06-02' }))).toEqual([nextDay.id])
    expect(ids(await all({ date_to: '2025-05-31' }))).toEqual([])
    expect(ids(await w.call('/api/sign/getlist', { date_from: '2025-06-02' }, other))).toEqual([nextDay.id])
    const page2 = ok(await all({ pagesize: 3, pageindex: 2 }))
    expect(page2).toEqual({ list: [mine], total: 4 })
    refused(await all({ date_from: '2025-06-31' }), ErrCode.VALIDATION, SIGN_MSG.dateInvalid)
    refused(await all({ date_from: '2025/06/01' }), ErrCode.VALIDATION, SIGN_MSG.dateInvalid)
    refused(await all({ date_from: '2025-06-02', date_to: '2025-06-01' }), ErrCode.VALIDATION, SIGN_MSG.dateRange)
    refused(await all({ pagesize: 51 }), ErrCode.VALIDATION, SIGN_MSG.pageSizeTooLarge(50))
  })
})

describe('tamper evidence: every read verifies the signature, opening a record the photo files too', () => {
  it("reads 'record' once a row's field is changed in the database", async () => {
    const record = await checkIn(member, { marker_id: m.shop }, { photos: [await photo(member)] })
    const edit = async (set: Record<string, unknown>) => w.t.db.kysely.updateTable('signs').set(set).where('id', '=', record.id).execute()
    await edit({ lng: record.lng + 0.001 })
    expect(ok(await w.call('/api/sign/getbyid', { id: record.id }, member))).toMatchObject({ verified: false, verify_failure: 'record', lng: record.lng + 0.001 })
    await edit({ lng: record.lng })
    expect(ok(await w.call('/api/sign/getbyid', { id: record.id }, member))).toMatchObject({ verified: true, verify_failure: null })
    for (const change of [{ distance: 10 }, { time: '2025-05-01T02:00:00.000Z' }, { addr: '别处' }, { target_name: '别的点' }, { code: 'AAAAAAAA' }, { user_id: other.userid }]) {
      await edit(change)
      const list = ok(await w.call('/api/sign/getlist', { scope: 'all' }, w.owner)).list as SignRecord[]
      expect(list.find((r) => r.id === record.id)).toMatchObject({ verified: false, verify_failure: 'record' })
      await edit({ distance: record.distance, time: record.time, addr: record.addr, target_name: record.target.name, code: record.code, user_id: member.userid })
    }
  })

  it("reads 'photo' once a photo file is overwritten or removed in storage, when the record is opened", async () => {
    const url = await photo(member, 1)
    const record = await checkIn(member, {}, { photos: [url, await photo(member, 2)] })
    await storage().put(keyOf(url), JPEG(9), 'image/jpeg')
    expect(ok(await w.call('/api/sign/getbyid', { id: record.id }, member))).toMatchObject({ verified: false, verify_failure: 'photo' })
    await storage().put(keyOf(url), JPEG(1), 'image/jpeg')
    expect(ok(await w.call('/api/sign/getbyid', { id: record.id }, member)).verified).toBe(true)
    await storage().delete(keyOf(url))
    expect(ok(await w.call('/api/sign/getbyid', { id: record.id }, member))).toMatchObject({ verified: false, verify_failure: 'photo' })
  })

  it('lists a page checking each record against its signature (which holds the photos’ hashes from check-in), reading no photo file', async () => {
    const records = [await checkIn(member, {}, { photos: [await photo(member, 1), await photo(member, 2)] }), await checkIn(member, {}, { photos: [await photo(member, 3)] })]
    const files = storage()
    const reads = jest.spyOn(files, 'get')
    const list = ok(await w.call('/api/sign/getlist', {}, member)).list as SignRecord[]
    expect(list.map((r) => [r.id, r.verified])).toEqual([
      [records[1].id, true],
      [records[0].id, true],
    ])
    expect(reads).not.toHaveBeenCalled()
    // A photo's hash changed in the row still shows in the list: the signature covers it.
    const photos = JSON.stringify([{ url: records[1].photos[0].url, sha256: 'f'.repeat(64) }])
    await w.t.db.kysely.updateTable('signs').set({ photos }).where('id', '=', records[1].id).execute()
    const after = ok(await w.call('/api/sign/getlist', {}, member)).list as SignRecord[]
    expect(after.find((r) => r.id === records[1].id)).toMatchObject({ verified: false, verify_failure: 'record' })
    expect(reads).not.toHaveBeenCalled()
    // Opening one reads its files.
    ok(await w.call('/api/sign/getbyid', { id: records[0].id }, member))
    expect(reads).toHaveBeenCalledTimes(2)
  })

  it("reads 'record' when a photo's hash or url is changed in the row", async () => {
    const record = await checkIn(member, {}, { photos: [await photo(member, 1)] })
    const photos = JSON.stringify([{ url: record.photos[0].url, sha256: 'f'.repeat(64) }])
    await w.t.db.kysely.updateTable('signs').set({ photos }).where('id', '=', record.id).execute()
    expect(ok(await w.call('/api/sign/getbyid', { id: record.id }, member))).toMatchObject({ verified: false, verify_failure: 'record' })
  })
})

describe('account deletion', () => {
  it("removes the check-ins of the groups the account owns, and no other group's", async () => {
    await checkIn(member)
    await checkIn(outsider)
    ok(await w.call('/api/user/logoff', {}, w.owner))
    expect((await signRows()).map((r) => r.user_id)).toEqual([outsider.userid])
  })
})
