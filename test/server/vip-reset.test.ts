/**
 * Expiry and reset to free (SPEC 4, 5, 9): an expired group keeps everything and may not
 * add beyond the free plan; the administrator's reset removes collaborators and leaves exactly the
 * latest 20 markers visible (nothing deleted); a renewal within 3 months of the expiry brings the
 * hidden markers back.
 */
import { ErrCode } from '../../types/api'
import { FREE_LIMITS } from '../../src/domain/constants'
import { MAP_MSG, TEAM_MSG } from '../../src/domain/messages'
import { VIP_MSG } from '../../src/domain/vipMessages'
import { restoreUntil } from '../../src/domain/tiers'
import { DAY_MS, sessionsUsedUntilNow } from './helpers'
import { makeWorld, ok, type Person, type TeamWorld } from './teams-fixture'
import { buyInSandbox, groupRow, passTrial, visibleMarkerNames } from './vip-fixture'

let w: TeamWorld
let layerA: number
let layerB: number
let alice: Person
let bob: Person
let trialExp: string

const names = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => `m${String(from + i).padStart(2, '0')}`)

beforeEach(async () => {
  w = await makeWorld({ paySandbox: true })
  trialExp = (await groupRow(w)).vip_exp as string
  layerA = await w.layer('甲')
  layerB = await w.layer('乙')
  alice = await w.join('13900000001', '爱丽丝')
  bob = await w.join('13900000002', '鲍勃')
  await w.grant(layerA, { user_id: alice.userid }, ['marker_add', 'marker_edit'])
  ok(await w.call('/api/user/pre/register', { nickname: '待加入', phone: '13900000003', department_id: 0 }, w.owner))
  // m01 .. m25, alternating layers, oldest first.
  for (const name of names(1, 25)) await w.marker(Number(name.slice(1)) % 2 ? layerA : layerB, name)
})
afterEach(() => w.close())

async function liveLayerCounts(): Promise<number> {
  const layers = ok(await w.call('/api/layer/getlist', {}, w.owner)) as { marker_count: number }[]
  return layers.reduce((sum, l) => sum + l.marker_count, 0)
}

async function markerRows(): Promise<number> {
  const row = await w.t.db.kysely
    .selectFrom('markers')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('group_id', '=', w.groupId)
    .executeTakeFirstOrThrow()
  return Number(row.n)
}

const addMarker = (name = 'new', auth: Person = w.owner) => w.call('/api/marker/save', { layer_id: layerA, name, type: 0, points: '116.4,39.9' }, auth)

function jpeg(): Buffer {
  return Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(2000, 7)])
}

async function upload(auth: Person) {
  const boundary = '----teammapvip'
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="userid"\r\n\r\n${auth.userid}\r\n--${boundary}\r\nContent-Disposition: form-data; name="token"\r\n\r\n${auth.token}\r\n--${boundary}\r\nContent-Disposition: form-data; name="type"\r\n\r\nnote\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`
  const payload = Buffer.concat([Buffer.from(head), jpeg(), Buffer.from(`\r\n--${boundary}--\r\n`)])
  const res = await w.t.app.inject({ method: 'POST', url: '/api/system/upload', payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } })
  return res.json().header as { errcode: number; errmsg: string }
}

describe('an expired group', () => {
  it('should keep every marker, member and file, and show the free plan as the limits in force', async () => {
    passTrial(w)
    expect(await visibleMarkerNames(w)).toEqual(names(1, 25))
    const info = ok(await w.call('/api/vip/info', {}, w.owner))
    expect(info).toMatchObject({
      level: 1,
      expired: true,
      days_left: 0,
      marker_limit: 300,
      join_limit: 5,
      file_rep_size: 307200,
      effective: { ...FREE_LIMITS },
      usage: { markers: 25, members: 3, pending: 1, storage_kb: 0 },
    })
    expect(ok(await w.call('/api/user/check/expired', {}, w.owner))).toMatchObject({ expired: true, is_admin: true, admin_vip_expired: true })
    expect(ok(await w.call('/api/user/check/expired', {}, alice))).toMatchObject({ expired: true, is_admin: false })
    // The member list and an invite link show the limit the next person is checked against.
    const joins = ok(await w.call('/api/group/get/joins', {}, w.owner))
    expect(joins).toMatchObject({ count: 3, join_limit: 0 })
    const code = ok(await w.call('/api/group/invite/code', {}, w.owner)).code
    expect(ok(await w.t.call('/api/group/invite/info', { code }))).toMatchObject({ member_count: 3, collaborator_count: 3, join_limit: 0 })
  })

  it('should refuse more markers, members and storage beyond the free plan, saying why', async () => {
    passTrial(w)
    expect(await addMarker()).toMatchObject({ errcode: ErrCode.LIMIT_REACHED, errmsg: VIP_MSG.expiredMarkerLimit(20) })
    expect(await addMarker('x', alice)).toMatchObject({ errmsg: VIP_MSG.expiredMarkerLimit(20) })
    const code = ok(await w.call('/api/group/invite/code', {}, w.owner)).code
    const { auth: carol } = await w.t.login('13900000004')
    expect(await w.call('/api/group/join', { code }, carol as Person)).toMatchObject({ errcode: ErrCode.LIMIT_REACHED, errmsg: VIP_MSG.expiredJoinLimit })
    expect(await w.call('/api/user/pre/register', { nickname: '新人', phone: '13900000005', department_id: 0 }, w.owner)).toMatchObject({ errmsg: VIP_MSG.expiredJoinLimit })
    await w.t.db.kysely
      .insertInto('uploads')
      .values({
        group_id: w.groupId,
        user_id: w.owner.userid,
        path: `${w.groupId}/old.jpg`,
        url: '/files/x',
        size_kb: FREE_LIMITS.file_size_limit,
        mime: 'image/jpeg',
        type: 'note',
        created_at: w.t.clock.now().toISOString(),
      })
      .execute()
    expect(await upload(w.owner)).toMatchObject({ errcode: ErrCode.LIMIT_REACHED, errmsg: VIP_MSG.expiredStorage })
    // Nothing was removed, and what exists can still be changed.
    expect(await markerRows()).toBe(25)
    const some = (ok(await w.call('/api/marker/getlist', { layer_ids: [layerA], pageindex: 1, pagesize: 1 }, w.owner)).list as any[])[0]
    expect(await w.call('/api/marker/save', { ...some, name: '改名' }, w.owner)).toMatchObject({ errcode: 0 })
  })

  it('should use the normal messages while the membership runs', async () => {
    // Two members and one pending person besides the administrator: 3 collaborators.
    await w.t.db.kysely.updateTable('groups').set({ marker_limit: 25, join_limit: 3 }).where('id', '=', w.groupId).execute()
    expect(await addMarker()).toMatchObject({ errmsg: MAP_MSG.markerLimit(25) })
    expect(await w.call('/api/user/pre/register', { nickname: '新人', phone: '13900000005', department_id: 0 }, w.owner)).toMatchObject({ errmsg: TEAM_MSG.joinLimit(3) })
  })

  it('should still let a small expired group add up to the free plan', async () => {
    const small = await makeWorld({ paySandbox: true })
    try {
      const layer = await small.layer('图层')
      for (let i = 0; i < 18; i++) await small.marker(layer, `s${i}`)
      passTrial(small)
      const add = () => small.call('/api/marker/save', { layer_id: layer, name: 'n', type: 0, points: '116.4,39.9' }, small.owner)
      expect(await add()).toMatchObject({ errcode: 0 })
      expect(await add()).toMatchObject({ errcode: 0 })
      expect(await add()).toMatchObject({ errmsg: VIP_MSG.expiredMarkerLimit(20) })
    } finally {
      await small.close()
    }
  })
})

describe('/api/vip/recovery (reset to free)', () => {
  it("should need a remark with SPEC 5's message", async () => {
    passTrial(w)
    for (const body of [{}, { remarks: '' }, { remarks: '   ' }, { remarks: 5 }]) {
      expect(await w.call('/api/vip/recovery', body, w.owner)).toMatchObject({ errcode: ErrCode.VALIDATION, errmsg: '请填写重置会员备注信息' })
    }
    expect((await groupRow(w)).level).toBe(1)
  })

  it("should be the administrator's, and only once the membership has expired", async () => {
    expect(await w.call('/api/vip/recovery', { remarks: '不续费' }, w.owner)).toMatchObject({ errcode: ErrCode.CONFLICT, errmsg: VIP_MSG.notExpired })
    passTrial(w)
    await w.makeManager(alice)
    expect(await w.call('/api/vip/recovery', { remarks: '不续费' }, alice)).toMatchObject({ errcode: ErrCode.FORBIDDEN, errmsg: VIP_MSG.adminOnly })
    expect(await markerRows()).toBe(25)
  })

  it('should remove all collaborators and keep exactly the latest 20 records visible, deleting nothing', async () => {
    passTrial(w)
    const res = ok(await w.call('/api/vip/recovery', { remarks: ' 暂不续费 ' }, w.owner))
    expect(res).toEqual({ removed_members: 2, hidden_markers: 5, restore_until: restoreUntil(trialExp).toISOString() })

    expect(await visibleMarkerNames(w)).toEqual(names(6, 25))
    expect(await liveLayerCounts()).toBe(20)
    expect(await markerRows()).toBe(25)
    expect(await groupRow(w)).toMatchObject({ level: 0, vip_exp: null, ...FREE_LIMITS })

    const joins = ok(await w.call('/api/group/get/joins', {}, w.owner))
    expect(joins.list.map((m: any) => m.user.id)).toEqual([w.owner.userid])
    expect(joins.pending).toEqual([])
    for (const gone of [alice, bob]) expect(await w.t.db.kysely.selectFrom('joins').selectAll().where('group_id', '=', w.groupId).where('user_id', '=', gone.userid).execute()).toEqual([])
    expect(await w.t.db.kysely.selectFrom('pre_registrations').selectAll().where('group_id', '=', w.groupId).execute()).toEqual([])
    expect(await w.t.db.kysely.selectFrom('layer_auth').selectAll().where('group_id', '=', w.groupId).execute()).toEqual([])
    // A removed member lands on their own map.
    const me = ok(await w.call('/api/user/getinfo', {}, alice))
    expect(me.user.select_groupid).not.toBe(w.groupId)

    const reset = await w.t.db.kysely.selectFrom('vip_resets').selectAll().executeTakeFirstOrThrow()
    expect(reset).toMatchObject({ group_id: w.groupId, user_id: w.owner.userid, remarks: '暂不续费', level_before: 1, expired_at: trialExp, hidden_count: 5, removed_members: 2, restored_at: null })

    const info = ok(await w.call('/api/vip/info', {}, w.owner))
    expect(info).toMatchObject({ level: 0, level_name: '免费版', expired: false, hidden_markers: 5, restore_until: res.restore_until, usage: { markers: 20, members: 1, pending: 0 } })
    expect(ok(await w.call('/api/user/check/expired', {}, w.owner))).toMatchObject({ expired: false, level: 0 })

    // Free now: the plan's normal limits (no collaborator, the administrator alone), and nothing to reset again.
    expect(ok(await w.call('/api/group/get/joins', {}, w.owner))).toMatchObject({ count: 0, join_limit: 0 })
    expect(await addMarker()).toMatchObject({ errmsg: MAP_MSG.markerLimit(20) })
    const code = ok(await w.call('/api/group/invite/code', {}, w.owner)).code
    expect(await w.call('/api/group/join', { code }, alice)).toMatchObject({ errcode: ErrCode.LIMIT_REACHED, errmsg: TEAM_MSG.joinLimit(0) })
    expect(await w.call('/api/user/pre/register', { nickname: '新人', phone: '13900000005', department_id: 0 }, w.owner)).toMatchObject({
      errcode: ErrCode.LIMIT_REACHED,
      errmsg: TEAM_MSG.joinLimit(0),
    })
    expect(TEAM_MSG.joinLimit(0)).toBe('免费版不能添加协作成员，请升级会员后再邀请')
    expect(await w.call('/api/vip/recovery', { remarks: '再来' }, w.owner)).toMatchObject({ errcode: ErrCode.CONFLICT, errmsg: VIP_MSG.alreadyFree })
  })

  it('should bring the hidden markers back on a renewal within 3 months of the expiry', async () => {
    passTrial(w)
    ok(await w.call('/api/vip/recovery', { remarks: '暂不续费' }, w.owner))
    w.t.clock.set(new Date(restoreUntil(trialExp).getTime() - DAY_MS))
    await sessionsUsedUntilNow(w.t)
    await buyInSandbox(w, 1)
    expect(await visibleMarkerNames(w)).toEqual(names(1, 25))
    expect(await liveLayerCounts()).toBe(25)
    expect(await w.t.db.kysely.selectFrom('vip_resets').select(['restored_at', 'restored_count']).executeTakeFirstOrThrow()).toEqual({ restored_at: w.t.clock.now().toISOString(), restored_count: 5 })
    expect(ok(await w.call('/api/vip/info', {}, w.owner))).toMatchObject({ level: 2, hidden_markers: 0, restore_until: null, usage: { markers: 25 } })
    // Collaborators do not come back by themselves.
    expect(ok(await w.call('/api/group/get/joins', {}, w.owner)).list).toHaveLength(1)
  })

  it('should keep them hidden (not deleted) when the renewal comes after 3 months', async () => {
    passTrial(w)
    ok(await w.call('/api/vip/recovery', { remarks: '暂不续费' }, w.owner))
    w.t.clock.set(new Date(restoreUntil(trialExp).getTime() + 1))
    await sessionsUsedUntilNow(w.t)
    expect(ok(await w.call('/api/vip/info', {}, w.owner))).toMatchObject({ hidden_markers: 0, restore_until: null })
    await buyInSandbox(w, 1)
    expect(await visibleMarkerNames(w)).toEqual(names(6, 25))
    expect(await markerRows()).toBe(25)
  })

  it('should bring back only the markers of layers that still exist', async () => {
    passTrial(w)
    ok(await w.call('/api/vip/recovery', { remarks: '暂不续费' }, w.owner))
    // Hidden: m01-m05; m02 and m04 are in layer B, which goes.
    ok(await w.call('/api/layer/delete', { id: layerB }, w.owner))
    w.t.clock.advance(DAY_MS)
    await buyInSandbox(w, 1)
    expect(await visibleMarkerNames(w)).toEqual(['m01', 'm03', 'm05', ...names(6, 25).filter((n) => Number(n.slice(1)) % 2 === 1)])
    expect(await liveLayerCounts()).toBe(13)
    expect(ok(await w.call('/api/vip/info', {}, w.owner)).usage.markers).toBe(13)
  })
})
