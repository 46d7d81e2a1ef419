/** /api/system/get/config and the database migrations. */
import { DEFAULT_SYSTEM_CONFIG } from '../../src/domain/constants'
import { migrateToLatest } from '../../server/src/db/migrations'
import { collaboratorLimit } from '../../server/src/db/migrations/0014_collaborator_limit'
import { setServiceContact } from '../../server/src/db/system-config'
import { databaseKind, makeTestApp, type TestApp } from './helpers'

let t: TestApp
beforeEach(async () => {
  t = await makeTestApp()
})
afterEach(() => t.close())

describe('/api/system/get/config', () => {
  it('should serve the default system config to anyone, without a session', async () => {
    const res = await t.call('/api/system/get/config', { no_check_permission: true })
    expect(res).toMatchObject({ status: 200, errcode: 0 })
    expect(res.data).toEqual({ ...DEFAULT_SYSTEM_CONFIG, id: 1 })
  })

  it('should carry the customer-service contact the operator set (empty until then)', async () => {
    expect((await t.call('/api/system/get/config', {})).data).toMatchObject({ service_phone: '', service_url: '' })
    await setServiceContact(t.db.kysely, { phone: '400-800-1234', url: 'https://work.weixin.qq.com/kfid/kf001' })
    expect((await t.call('/api/system/get/config', {})).data).toMatchObject({ service_phone: '400-800-1234', service_url: 'https://work.weixin.qq.com/kfid/kf001' })
    // Only what is given changes.
    await setServiceContact(t.db.kysely, { phone: '' })
    expect((await t.call('/api/system/get/config', {})).data).toMatchObject({ service_phone: '', service_url: 'https://work.weixin.qq.com/kfid/kf001' })
  })

  it('should ignore an invalid session on this public call', async () => {
    const res = await t.call('/api/system/get/config', { no_check_permission: true }, { userid: 9, token: 'stale' })
    expect(res.status).toBe(200)
  })
})

describe('migrations', () => {
  it('should run on the database that DATABASE_URL names (SQLite without it)', () => {
    expect(t.db.dialect).toBe(databaseKind)
  })

  it('should apply nothing when run again', async () => {
    const again = await migrateToLatest(t.db)
    expect(again.results).toEqual([])
  })

  it('should have created every table of the foundation', async () => {
    for (const table of ['users', 'groups', 'joins', 'sessions', 'sms_codes'] as const) {
      expect(await t.count(table)).toBe(0)
    }
  })

  it('should give a group already reset to free no collaborator once join_limit counts collaborators, leaving other groups alone', async () => {
    const groupOf = async (phone: string) => (await t.call('/api/group/create', {}, (await t.login(phone)).auth)).data.user.select_groupid as number
    const [free, custom, trial] = [await groupOf('13900000001'), await groupOf('13900000002'), await groupOf('13900000003')]
    // What a reset to free stored while join_limit still counted the administrator.
    await t.db.kysely.updateTable('groups').set({ level: 0, vip_exp: null, join_limit: 1 }).where('id', '=', free).execute()
    await t.db.kysely.updateTable('groups').set({ level: 0, vip_exp: null, join_limit: 3 }).where('id', '=', custom).execute()
    await collaboratorLimit().up(t.db.kysely)
    const limits = await t.db.kysely.selectFrom('groups').select(['id', 'join_limit']).where('id', 'in', [free, custom, trial]).orderBy('id').execute()
    expect(limits).toEqual([
      { id: free, join_limit: 0 },
      { id: custom, join_limit: 3 },
      { id: trial, join_limit: 5 },
    ])
  })

  it('should enforce one membership per user and group', async () => {
    const { auth } = await t.login()
    const groupId = (await t.call('/api/group/create', {}, auth)).data.user.select_groupid
    const duplicate = t.db.kysely
      .insertInto('joins')
      .values({ group_id: groupId, user_id: auth.userid as number, department_id: 0, is_manager: 0, created_at: t.clock.now().toISOString() })
      .execute()
    // Not toThrow(): better-sqlite3's error class may come from another Jest realm.
    await expect(duplicate).rejects.toHaveProperty('message', expect.stringMatching(/unique|duplicate key/i))
  })
})
