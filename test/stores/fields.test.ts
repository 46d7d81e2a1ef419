import { MAP_MSG, MAP_UI_MSG } from '../../src/domain/messages'
import { parseOptions } from '../../src/stores/FieldStore'
import { fail, ok } from '../support/fakes'
import { buildField, signedInRoot } from '../support/mapBuilders'

const F1 = buildField({ id: 1, layer_id: 9, name: '联系人', sort: 1 })
const F2 = buildField({ id: 2, layer_id: 9, name: '电话', kind: 'phone', sort: 2 })
const F3 = buildField({ id: 3, layer_id: 9, name: '状态', kind: 'choice', options: ['待办', '完成'], sort: 3 })

describe('FieldStore (custom fields of a layer)', () => {
  it('lists the fields of a layer in their order', async () => {
    const { root, calls } = await signedInRoot({ '/api/layer/field/getlist': () => ok([F3, F1, F2]) })
    await root.fields.load(9)
    expect(calls.at(-1)?.body).toMatchObject({ layer_id: 9 })
    expect(root.fields.fieldsOf(9).map((f) => f.name)).toEqual(['联系人', '电话', '状态'])
    // ensure() does not fetch again
    await root.fields.ensure(9)
    expect(calls.filter((c) => c.path === '/api/layer/field/getlist')).toHaveLength(1)
  })

  it('checks name, duplicates and choices before calling the server', async () => {
    const { root, calls } = await signedInRoot({ '/api/layer/field/getlist': () => ok([F1, F2, F3]) })
    await root.fields.load(9)
    calls.length = 0
    expect(await root.fields.save({ layer_id: 9, name: ' ', kind: 'text' })).toBeUndefined()
    expect(root.app.currentNotice?.text).toBe(MAP_MSG.fieldNameRequired)
    expect(await root.fields.save({ layer_id: 9, name: '电话', kind: 'text' })).toBeUndefined()
    expect(root.app.currentNotice?.text).toBe(MAP_MSG.fieldNameDuplicate)
    expect(await root.fields.save({ layer_id: 9, name: '等级', kind: 'choice', options: [' ', ''] })).toBeUndefined()
    expect(root.app.currentNotice?.text).toBe(MAP_MSG.fieldChoicesRequired)
    expect(await root.fields.save({ layer_id: 9, name: '很'.repeat(21), kind: 'text' })).toBeUndefined()
    expect(root.app.currentNotice?.text).toBe(MAP_UI_MSG.fieldNameTooLong(20))
    expect(calls).toHaveLength(0)
  })

  it('adds and edits fields', async () => {
    const { root, calls } = await signedInRoot({
      '/api/layer/field/getlist': () => ok([F1]),
      '/api/layer/field/save': (b) => ok(buildField({ ...b, id: b.id ?? 10, sort: 5 })),
    })
    await root.fields.load(9)
    const added = await root.fields.save({ layer_id: 9, name: '等级', kind: 'choice', options: ['A', ' B ', 'A'], required: true })
    expect(calls.at(-1)?.body).toMatchObject({ layer_id: 9, name: '等级', kind: 'choice', options: ['A', 'B'], required: true })
    expect(added?.id).toBe(10)
    await root.fields.save({ id: 1, layer_id: 9, name: '负责人', kind: 'text' })
    expect(root.fields.fieldsOf(9).map((f) => f.name)).toEqual(['负责人', '等级'])
  })

  it('reorders with up and down and sends the new order', async () => {
    const { root, calls } = await signedInRoot({
      '/api/layer/field/getlist': () => ok([F1, F2, F3]),
      '/api/layer/field/sort': (b) => ok(b.ids.map((id: number, i: number) => ({ ...[F1, F2, F3].find((f) => f.id === id)!, sort: i + 1 }))),
    })
    await root.fields.load(9)
    expect(await root.fields.move(9, 3, -1)).toBe(true)
    expect(calls.at(-1)?.body).toEqual(expect.objectContaining({ layer_id: 9, ids: [1, 3, 2] }))
    expect(root.fields.fieldsOf(9).map((f) => f.id)).toEqual([1, 3, 2])
    expect(await root.fields.move(9, 1, -1)).toBe(false)
  })

  it('puts the order back when the server refuses it', async () => {
    const { root } = await signedInRoot({ '/api/layer/field/getlist': () => ok([F1, F2]), '/api/layer/field/sort': () => fail(1003, '没有权限执行此操作') })
    await root.fields.load(9)
    expect(await root.fields.move(9, 1, 1)).toBe(false)
    expect(root.fields.fieldsOf(9).map((f) => f.id)).toEqual([1, 2])
  })

  it('deletes a field', async () => {
    const { root, calls } = await signedInRoot({ '/api/layer/field/getlist': () => ok([F1, F2]), '/api/layer/field/delete': () => ok(null) })
    await root.fields.load(9)
    expect(await root.fields.remove(9, 2)).toBe(true)
    expect(calls.at(-1)).toMatchObject({ path: '/api/layer/field/delete', body: { id: 2 } })
    expect(root.fields.fieldsOf(9).map((f) => f.id)).toEqual([1])
  })

  it('reads choices typed one per line or separated by commas', () => {
    expect(parseOptions('待办\n进行中，完成,完成、 ')).toEqual(['待办', '进行中', '完成'])
  })
})
