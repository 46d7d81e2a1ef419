/**
 * Managing shares: /api/share/getlist/group lists the caller's group's shares newest
 * first in pages (managers all, with an optional creator filter; others only their own), and
 * /api/share/delete lets the creator or a manager delete one.
 */
import { ErrCode } from '../../types/api'
import { MAP_MSG, MSG } from '../../src/domain/messages'
import { SHARE_MSG } from '../../src/domain/shareMessages'
import { PERM } from '../../src/domain/permissions'
import type { Person } from './teams-fixture'
import { makeShareWorld, ok, type ShareWorld } from './share-fixture'

// Each test's world is a group, three people and their shares: on a busy machine's PostgreSQL setting it up took more than jest's 5 s (seen once in CI).
jest.setTimeout(30_000)

let w: ShareWorld
let member: Person
let colleague: Person

beforeEach(async () => {
  w = await makeShareWorld()
  member = await w.join('13900000001', '成员甲')
  colleague = await w.join('13900000002', '成员乙')
  for (const p of [member, colleague]) await w.grant(w.layers.a, { user_id: p.userid }, [PERM.LAYER_DATA_LIST, PERM.LAYER_SHARE])
  await w.role('分享员', [PERM.MODULE_SHARE], [member, colleague])
})

afterEach(async () => {
  await w.close()
})

const list = async (auth: Person, fields: object = {}) => ok(await w.call<{ list: any[]; total: number }>('/api/share/getlist/group', fields, auth))

/** Shares made one minute apart: owner, member, colleague, owner (a marker share), member. */
async function fiveShares(): Promise<string[]> {
  const made: string[] = []
  const plan: [Person, Record<string, unknown>][] = [
    [w.owner, { name: '一', data_ids: [w.layers.a] }],
    [member, { name: '二', data_ids: [w.layers.a] }],
    [colleague, { name: '三', data_ids: [w.layers.a] }],
    [w.owner, { name: '四', type: 2, data_ids: [w.markers.c[0]] }],
    [member, { name: '五', type: 2, data_ids: [w.markers.a[0]] }],
  ]
  for (const [who, fields] of plan) {
    w.t.clock.advance(60_000)
    made.push(await w.share(fields, who))
  }
  return made
}

describe('the group list', () => {
  it('shows a manager every share of the group, newest first, as Share objects', async () => {
    const [one, , , four, five] = await fiveShares()
    const all = await list(w.owner)
    expect(all.total).toBe(5)
    expect(all.list.map((s) => s.name)).toEqual(['五', '四', '三', '二', '一'])
    expect(all.list[0]).toEqual({
      id: five,
      name: '五',
      show_btn: 60,
      need_pwd: false,
      exp: null,
      expired: false,
      data_ids: [w.markers.a[0]],
      type: 2,
      style: null,
      addtime: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      op_user: { id: member.userid, nickname: '成员甲' },
      group_id: w.groupId,
    })
    expect(all.list.find((s) => s.id === four).op_user).toEqual({ id: w.owner.userid, nickname: '队长' })
    expect(all.list.find((s) => s.id === one).addtime < all.list[0].addtime).toBe(true)
  })

  it('lets a manager filter by creator and by kind', async () => {
    await fiveShares()
    const manager = await w.join('13900000003', '经理')
    await w.makeManager(manager)
    expect((await list(manager, { op_userid: member.userid })).list.map((s) => s.name)).toEqual(['五', '二'])
    expect((await list(w.owner, { type: 2 })).list.map((s) => s.name)).toEqual(['五', '四'])
    expect(await list(w.owner, { op_userid: member.userid, type: 1 })).toMatchObject({ total: 1, list: [{ name: '二' }] })
  })

  it('shows others only their own shares, whatever op_userid they send', async () => {
    await fiveShares()
    expect((await list(member)).list.map((s) => s.name)).toEqual(['五', '二'])
    expect((await list(member, { op_userid: colleague.userid })).list.map((s) => s.name)).toEqual(['五', '二'])
    expect((await list(colleague, { op_userid: w.owner.userid })).list.map((s) => s.name)).toEqual(['三'])
  })

  it('pages from 1 with at most 100 per page', async () => {
    await fiveShares()
    const first = await list(w.owner, { pageindex: 1, pagesize: 2 })
    const second = await list(w.owner, { pageindex: 2, pagesize: 2 })
    const third = await list(w.owner, { pageindex: 3, pagesize: 2 })
    expect([first, second, third].map((p) => p.list.map((s) => s.name))).toEqual([['五', '四'], ['三', '二'], ['一']])
    expect([first.total, second.total, third.total]).toEqual([5, 5, 5])
    const tooMany = await w.call('/api/share/getlist/group', { pagesize: 101 }, w.owner)
    expect([tooMany.errcode, tooMany.errmsg]).toEqual([ErrCode.VALIDATION, MAP_MSG.pageSizeTooLarge(100)])
    const badIndex = await w.call('/api/share/getlist/group', { pageindex: 0 }, w.owner)
    expect(badIndex.errcode).toBe(ErrCode.VALIDATION)
  })

  it("never lists another group's shares", async () => {
    await fiveShares()
    const stranger = await w.stranger('13700000001', '外人')
    const theirLayer = ok(await w.call('/api/layer/save', { name: '别人的', type: 1, parent_id: 0 }, stranger)).id
    const theirs = await w.share({ name: '外', data_ids: [theirLayer] }, stranger)
    expect((await list(stranger)).list.map((s) => s.id)).toEqual([theirs])
    expect((await list(w.owner)).list.map((s) => s.id)).not.toContain(theirs)
  })
})

describe('deleting a share', () => {
  it('lets the creator delete their own share', async () => {
    const [, two] = await fiveShares()
    ok(await w.call('/api/share/delete', { id: two }, member))
    expect((await list(member)).list.map((s) => s.name)).toEqual(['五'])
  })

  it("lets a manager delete anybody's share, and refuses other members", async () => {
    const [one, two, three] = await fiveShares()
    const refused = await w.call('/api/share/delete', { id: three }, member)
    expect([refused.errcode, refused.errmsg]).toEqual([ErrCode.FORBIDDEN, MSG.forbidden])
    const refusedOwner = await w.call('/api/share/delete', { id: one }, member)
    expect(refusedOwner.errcode).toBe(ErrCode.FORBIDDEN)
    expect((await list(w.owner)).total).toBe(5)

    const manager = await w.join('13900000003', '经理')
    await w.makeManager(manager)
    ok(await w.call('/api/share/delete', { id: three }, manager))
    ok(await w.call('/api/share/delete', { id: two }, w.owner))
    expect((await list(w.owner)).list.map((s) => s.name)).toEqual(['五', '四', '一'])
  })

  it("answers another group's or an unknown share NOT_FOUND, and deletes nothing", async () => {
    const [one] = await fiveShares()
    const stranger = await w.stranger('13700000001', '外人')
    for (const id of [one, 'Q'.repeat(16)]) {
      const res = await w.call('/api/share/delete', { id }, stranger)
      expect([res.errcode, res.errmsg]).toEqual([ErrCode.NOT_FOUND, SHARE_MSG.notFound])
    }
    expect((await list(w.owner)).total).toBe(5)
    expect((await w.t.call('/api/share/delete', { id: one }, null)).status).toBe(401)
  })

  it('lets a manager delete the share of a creator who has left the group', async () => {
    const [, two] = await fiveShares()
    ok(await w.call('/api/group/quit', {}, member))
    expect((await list(w.owner)).list.find((s) => s.id === two).op_user).toEqual({ id: member.userid, nickname: '成员甲' })
    ok(await w.call('/api/share/delete', { id: two }, w.owner))
    const res = await w.t.call('/api/share/getbyid', { id: two }, null)
    expect(res.errcode).toBe(ErrCode.NOT_FOUND)
  })
})
