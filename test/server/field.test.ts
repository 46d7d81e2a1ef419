/** /api/layer/field/*: custom fields of a layer, their rules, order, permissions and log. */
import { ErrCode } from '../../types/api'
import { MAP_IO_MSG, MAP_MSG, MAP_UI_MSG, MSG } from '../../src/domain/messages'
import { FILE_URL_MSG } from '../../src/domain/systemMessages'
import { PERM } from '../../src/domain/permissions'
import { FIELD_NAME_MAX } from '../../src/domain/fields'
import { expectOk, grant, makeLayer, makeMarker, makeTeam, rowCount, type Team } from './mapdata-fixture'
import { uploadPng } from './upload-fixture'

let team: Team
let layerId: number
beforeEach(async () => {
  team = await makeTeam()
  layerId = await makeLayer(team.t, team.owner, '水井')
})
afterEach(() => team.t.close())

const save = (body: object, auth = team.owner) => team.t.call('/api/layer/field/save', { layer_id: layerId, ...body }, auth)

describe('/api/layer/field/save', () => {
  it('should add fields of every kind in order and list them', async () => {
    const kinds = ['text', 'number', 'date', 'choice', 'phone', 'photo'] as const
    for (const kind of kinds) expectOk(await save({ name: `字段${kind}`, kind, options: kind === 'choice' ? ['好', '坏'] : undefined, required: kind === 'text' }))
    const list = expectOk(await team.t.call('/api/layer/field/getlist', { layer_id: layerId }, team.owner))
    expect(list.map((f: any) => [f.name, f.kind, f.sort, f.required])).toEqual(kinds.map((k, i) => [`字段${k}`, k, i, k === 'text']))
    expect(list[3]).toEqual({ id: expect.any(Number), layer_id: layerId, name: '字段choice', kind: 'choice', options: ['好', '坏'], required: false, sort: 3, rev: 1 })
  })

  it('should want choices for a choice field, trimmed and without repeats, and drop them for other kinds', async () => {
    expect(await save({ name: '状态', kind: 'choice', options: [' ', ''] })).toMatchObject({ errcode: ErrCode.VALIDATION, errmsg: MAP_MSG.fieldChoicesRequired })
    expect(expectOk(await save({ name: '状态', kind: 'choice', options: [' 正常 ', '正常', '停用'] })).options).toEqual(['正常', '停用'])
    expect(expectOk(await save({ name: '深度', kind: 'number', options: ['x'] })).options).toEqual([])
  })

  it('should refuse a blank, too long or repeated name and an unknown kind', async () => {
    expect(await save({ name: ' ', kind: 'text' })).toMatchObject({ errcode: ErrCode.VALIDATION, errmsg: MAP_MSG.fieldNameRequired })
    expect(await save({ name: '长'.repeat(FIELD_NAME_MAX + 1), kind: 'text' })).toMatchObject({ errmsg: MAP_UI_MSG.fieldNameTooLong(FIELD_NAME_MAX) })
    expect(await save({ name: '深度', kind: 'colour' })).toMatchObject({ errcode: ErrCode.VALIDATION, errmsg: MAP_IO_MSG.fieldKindInvalid })
    expectOk(await save({ name: '深度', kind: 'number' }))
    expect(await save({ name: ' 深度 ', kind: 'text' })).toMatchObject({ errcode: ErrCode.CONFLICT, errmsg: MAP_MSG.fieldNameDuplicate })
    expect(await rowCount(team.t, 'layer_fields')).toBe(1)
  })

  it('should allow the same name on another layer and again after the first was deleted', async () => {
    const other = await makeLayer(team.t, team.owner, '泵站')
    const first = expectOk(await save({ name: '深度', kind: 'number' }))
    expectOk(await team.t.call('/api/layer/field/save', { layer_id: other, name: '深度', kind: 'number' }, team.owner))
    expectOk(await team.t.call('/api/layer/field/delete', { id: first.id }, team.owner))
    expectOk(await save({ name: '深度', kind: 'text' }))
  })

  it('should rename a field and keep its place', async () => {
    const a = expectOk(await save({ name: 'A', kind: 'text' }))
    expectOk(await save({ name: 'B', kind: 'text' }))
    const renamed = expectOk(await save({ id: a.id, name: 'A2', kind: 'date', required: true }))
    expect(renamed).toMatchObject({ id: a.id, name: 'A2', kind: 'date', required: true, sort: 0 })
  })

  it('should refuse fields on a folder', async () => {
    const folder = await makeLayer(team.t, team.owner, '文件夹', 0)
    expect(await team.t.call('/api/layer/field/save', { layer_id: folder, name: 'x', kind: 'text' }, team.owner)).toMatchObject({
      errcode: ErrCode.VALIDATION,
      errmsg: MAP_MSG.folderCannotHoldMarkers,
    })
  })

  it('should make marker saves check the field values', async () => {
    const depth = expectOk(await save({ name: '深度', kind: 'number', required: true }))
    expect(await team.t.call('/api/marker/save', { layer_id: layerId, name: 'x', type: 0, points: '116.4,39.9' }, team.owner)).toMatchObject({ errmsg: MAP_MSG.fieldRequired('深度') })
    const id = await makeMarker(team.t, team.owner, layerId, { fields: { [depth.id]: '12.5' } })
    const [marker] = expectOk(await team.t.call('/api/marker/getbyid', { ids: [id] }, team.owner))
    expect(marker.fields).toEqual({ [depth.id]: 12.5 })
  })
})

describe('photo field values', () => {
  it('should keep photos uploaded to the app and refuse any other value, naming the field', async () => {
    const photos = expectOk(await save({ name: '现场照片', kind: 'photo' }))
    const url = await uploadPng(team.t, team.owner, 'note')
    const id = await makeMarker(team.t, team.owner, layerId, { fields: { [photos.id]: [url] } })
    const [marker] = expectOk(await team.t.call('/api/marker/getbyid', { ids: [id] }, team.owner))
    expect(marker.fields).toEqual({ [photos.id]: [url] })
    for (const bad of [['javascript:alert(1)'], [url, 'https://tracker.example.com/p.gif'], 'https://tracker.example.com/p.gif', ['/files/a.jpg']]) {
      const res = await team.t.call('/api/marker/save', { layer_id: layerId, name: '坏照片', type: 0, points: '116.4,39.9', fields: { [photos.id]: bad } }, team.owner)
      expect(res).toMatchObject({ errcode: ErrCode.VALIDATION, errmsg: FILE_URL_MSG.fieldPhoto('现场照片') })
    }
    expect(await rowCount(team.t, 'markers')).toBe(1)
  })
})

describe('/api/layer/field/delete and sort', () => {
  it('should delete a field, log it and leave the other fields', async () => {
    const a = expectOk(await save({ name: 'A', kind: 'text' }))
    const b = expectOk(await save({ name: 'B', kind: 'text' }))
    expectOk(await team.t.call('/api/layer/field/delete', { id: a.id }, team.owner))
    expect(expectOk(await team.t.call('/api/layer/field/getlist', { layer_id: layerId }, team.owner)).map((f: any) => f.id)).toEqual([b.id])
    expect(await team.t.call('/api/layer/field/delete', { id: a.id }, team.owner)).toMatchObject({ errcode: ErrCode.NOT_FOUND })
    const log = expectOk(await team.t.call('/api/oplog/getlist', { entity: 'field' }, team.owner))
    expect(log.list.map((l: any) => [l.action, l.name, l.restorable])).toEqual([
      ['delete', 'A', true],
      ['create', 'B', false],
      ['create', 'A', false],
    ])
  })

  it('should reorder the fields to exactly the ids given', async () => {
    const ids = []
    for (const name of ['A', 'B', 'C']) ids.push(expectOk(await save({ name, kind: 'text' })).id)
    const sorted = expectOk(await team.t.call('/api/layer/field/sort', { layer_id: layerId, ids: [ids[2], ids[0], ids[1]] }, team.owner))
    expect(sorted.map((f: any) => [f.name, f.sort])).toEqual([
      ['C', 0],
      ['A', 1],
      ['B', 2],
    ])
  })

  it('should refuse an order that misses, repeats or adds a field', async () => {
    const ids = []
    for (const name of ['A', 'B']) ids.push(expectOk(await save({ name, kind: 'text' })).id)
    const refused = { errcode: ErrCode.VALIDATION, errmsg: MAP_IO_MSG.fieldOrderChanged }
    expect(await team.t.call('/api/layer/field/sort', { layer_id: layerId, ids: [ids[0]] }, team.owner)).toMatchObject(refused)
    expect(await team.t.call('/api/layer/field/sort', { layer_id: layerId, ids: [ids[0], ids[0]] }, team.owner)).toMatchObject(refused)
    expect(await team.t.call('/api/layer/field/sort', { layer_id: layerId, ids: [...ids, 9999] }, team.owner)).toMatchObject(refused)
  })
})

describe('field permissions', () => {
  it('should let a plain member read the fields of a layer they see but not change them without layer_field', async () => {
    const { t, member } = team
    const field = expectOk(await save({ name: 'A', kind: 'text' }))
    await grant(team, layerId, member, [PERM.MARKER_ADD])
    expect(expectOk(await t.call('/api/layer/field/getlist', { layer_id: layerId }, member))).toHaveLength(1)
    const forbidden = { errcode: ErrCode.FORBIDDEN, errmsg: MSG.forbidden }
    expect(await save({ name: 'B', kind: 'text' }, member)).toMatchObject(forbidden)
    expect(await save({ id: field.id, name: 'A2', kind: 'text' }, member)).toMatchObject(forbidden)
    expect(await t.call('/api/layer/field/delete', { id: field.id }, member)).toMatchObject(forbidden)
    expect(await t.call('/api/layer/field/sort', { layer_id: layerId, ids: [field.id] }, member)).toMatchObject(forbidden)
    await grant(team, layerId, member, [PERM.LAYER_FIELD])
    expectOk(await save({ name: 'B', kind: 'text' }, member))
  })

  it('should hide the fields of a layer from a member who holds nothing on it', async () => {
    expect(await team.t.call('/api/layer/field/getlist', { layer_id: layerId }, team.member)).toMatchObject({ errcode: ErrCode.FORBIDDEN })
  })

  it('should keep another group from reading, adding, changing, deleting or sorting fields', async () => {
    const { t, outsider } = team
    const field = expectOk(await save({ name: 'A', kind: 'text' }))
    const notFound = { errcode: ErrCode.NOT_FOUND }
    expect(await t.call('/api/layer/field/getlist', { layer_id: layerId }, outsider)).toMatchObject(notFound)
    expect(await save({ name: 'B', kind: 'text' }, outsider)).toMatchObject(notFound)
    expect(await save({ id: field.id, name: 'A2', kind: 'text' }, outsider)).toMatchObject(notFound)
    expect(await t.call('/api/layer/field/delete', { id: field.id }, outsider)).toMatchObject(notFound)
    expect(await t.call('/api/layer/field/sort', { layer_id: layerId, ids: [field.id] }, outsider)).toMatchObject(notFound)
    expect(expectOk(await t.call('/api/layer/field/getlist', { layer_id: layerId }, team.owner))).toMatchObject([{ name: 'A' }])
  })
})
