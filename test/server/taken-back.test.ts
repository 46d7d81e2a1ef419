/**
 * What was taken back does not leak: a deleted custom field's values leave every answer at once
 * (the layer's pages, the public share, keyword search) and the markers' storage (a restore brings
 * them back), and keyword search matches note text only for callers who may read the notes.
 */
import { PERM } from '../../src/domain/permissions'
import { makeShareWorld, ok, type ShareWorld } from './share-fixture'
import type { Person } from './teams-fixture'

let w: ShareWorld
afterEach(async () => {
  await w?.close()
})

const search = (kw: string, auth: Person = w.owner) => w.call('/api/marker/search', { kw, pageindex: 1, pagesize: 100 }, auth)
const hitIds = async (kw: string, auth?: Person) => (ok(await search(kw, auth)).list as { id: number }[]).map((m) => m.id)

describe('a deleted custom field', () => {
  let secret: number
  let kept: number
  let marker: number
  let shareId: string
  beforeEach(async () => {
    w = await makeShareWorld({ a: 0, b: 0, c: 0 })
    secret = ok(await w.call('/api/layer/field/save', { layer_id: w.layers.a, name: '底价', kind: 'text' }, w.owner)).id
    kept = ok(await w.call('/api/layer/field/save', { layer_id: w.layers.a, name: '联系人', kind: 'text' }, w.owner)).id
    marker = ok(await w.call('/api/marker/save', { layer_id: w.layers.a, name: '客户甲', type: 0, points: '116.397428,39.90923', fields: { [secret]: '底价八十万', [kept]: '王经理' } }, w.owner)).id
    shareId = await w.share({ data_ids: [w.layers.a] })
    ok(await w.call('/api/layer/field/delete', { id: secret }, w.owner))
  })

  const storedFields = async () => JSON.parse((await w.t.db.kysely.selectFrom('markers').select('fields').where('id', '=', marker).executeTakeFirstOrThrow()).fields)

  it('is gone from the layer’s pages, the public share, keyword search and the marker’s storage at once', async () => {
    const [page] = ok(await w.call('/api/marker/getlist', { layer_ids: [w.layers.a], pageindex: 1, pagesize: 10 }, w.owner)).list
    expect(page.fields).toEqual({ [kept]: '王经理' })
    const [shared] = ok(await w.t.call('/api/marker/get/share', { share_id: shareId }, null)).list
    expect(JSON.stringify(shared)).not.toContain('底价八十万')
    expect(await hitIds('八十万')).toEqual([])
    expect(await hitIds('王经理')).toEqual([marker])
    expect(await storedFields()).toEqual({ [kept]: '王经理' })
    const row = await w.t.db.kysely.selectFrom('markers').select('search_text').where('id', '=', marker).executeTakeFirstOrThrow()
    expect(row.search_text).not.toContain('八十万')
    // The operation log showed the marker as created, with the value: no more.
    const log = ok(await w.call('/api/oplog/getlist', { entity: 'marker' }, w.owner))
    expect(log.list.length).toBeGreaterThan(0)
    expect(JSON.stringify(log)).not.toContain('八十万')
    expect(JSON.stringify(log)).toContain('王经理')
  })

  it('comes back with its values when restored from the operation log', async () => {
    const op = (ok(await w.call('/api/oplog/getlist', { entity: 'field', action: 'delete' }, w.owner)).list as { id: number; entity_id: number }[]).find((l) => l.entity_id === secret)!
    ok(await w.call('/api/oplog/restore', { id: op.id }, w.owner))
    expect(await storedFields()).toEqual({ [secret]: '底价八十万', [kept]: '王经理' })
    expect(await hitIds('八十万')).toEqual([marker])
    expect(await w.t.db.kysely.selectFrom('deleted_field_values').selectAll().execute()).toEqual([])
  })
})

describe('keyword search in notes', () => {
  it('matches note text only on layers where the caller holds note_list', async () => {
    w = await makeShareWorld({ a: 1, b: 1, c: 0 })
    const reader = await w.join('13800000011', '只看点位')
    const noteReader = await w.join('13800000012', '能看备注')
    for (const layer of [w.layers.a, w.layers.b]) {
      await w.grant(layer, { user_id: reader.userid }, [PERM.MARKER_ADD])
      await w.grant(layer, { user_id: noteReader.userid }, [PERM.MARKER_ADD])
    }
    await w.grant(w.layers.a, { user_id: noteReader.userid }, [PERM.MARKER_ADD, PERM.NOTE_LIST])
    await w.note(w.markers.a[0], '门禁密码 4321')
    await w.note(w.markers.b[0], '门禁密码 8765')

    expect((await hitIds('门禁密码', w.owner)).sort()).toEqual([w.markers.a[0], w.markers.b[0]].sort())
    expect(await hitIds('门禁密码', reader)).toEqual([])
    expect(await hitIds('4321', reader)).toEqual([])
    expect(await hitIds('门禁密码', noteReader)).toEqual([w.markers.a[0]])
    // The marker itself is still found by its name.
    expect(await hitIds('A1', reader)).toEqual([w.markers.a[0]])
  })
})
