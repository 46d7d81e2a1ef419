/** A call decides on the caller's session and team as they are now: a revoked permission, a removal from the team or a logout refuses the very next call. */
import { ErrCode } from '../../types/api'
import { MSG, TEAM_UI_MSG } from '../../src/domain/messages'
import { PERM } from '../../src/domain/permissions'
import { makeWorld, ok, type TeamWorld } from './teams-fixture'

let w: TeamWorld
beforeEach(async () => {
  w = await makeWorld()
})
afterEach(() => w.close())

const save = (layer_id: number, name: string, auth: Parameters<TeamWorld['call']>[2]) => w.call('/api/marker/save', { layer_id, name, type: 0, points: '116.39,39.9' }, auth)

describe('the caller of a marker save', () => {
  it('should be refused on the next save once their add permission on the layer is taken away', async () => {
    const layer = await w.layer('水井')
    const member = await w.join('13900000001', '小李')
    await w.grant(layer, { user_id: member.userid }, [PERM.MARKER_ADD])
    expect(ok(await save(layer, '井1', member))).toMatchObject({ name: '井1', creator_name: '小李' })

    await w.grant(layer, { user_id: member.userid }, [])

    expect(await save(layer, '井2', member)).toMatchObject({ errcode: ErrCode.FORBIDDEN })
  })

  it('should be refused on the next save once removed from the team', async () => {
    const layer = await w.layer('水井')
    const member = await w.join('13900000001', '小李')
    await w.grant(layer, { user_id: member.userid }, [PERM.MARKER_ADD])
    ok(await save(layer, '井1', member))

    ok(await w.call('/api/group/remove/join', { join_id: member.joinId }, w.owner))

    expect(await save(layer, '井2', member)).toMatchObject({ errcode: ErrCode.FORBIDDEN, errmsg: MSG.forbidden })
  })
})

describe('the caller of any call', () => {
  it('should be refused on the next call once the administrator takes a permission out of their role', async () => {
    const member = await w.join('13900000001', '小李')
    const role = await w.role('日志员', [PERM.MODULE_LOG, PERM.OPLOG], [member])
    expect((await w.call('/api/oplog/getlist', {}, member)).errcode).toBe(ErrCode.OK)

    ok(await w.call('/api/role/save/module', { role_id: role, module_ids: [PERM.MODULE_LOG] }, w.owner))

    expect(await w.call('/api/oplog/getlist', {}, member)).toMatchObject({ errcode: ErrCode.FORBIDDEN, errmsg: TEAM_UI_MSG.actionMissing('操作日志') })
  })

  it('should be refused on the next call once logged out', async () => {
    const layer = await w.layer('水井')
    const member = await w.join('13900000001', '小李')
    await w.grant(layer, { user_id: member.userid }, [PERM.MARKER_ADD])
    ok(await save(layer, '井1', member))

    ok(await w.call('/api/user/logout', {}, member))

    expect((await save(layer, '井2', member)).status).toBe(401)
  })
})
