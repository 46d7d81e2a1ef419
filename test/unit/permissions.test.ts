import { MAP_MSG } from '../../src/domain/messages'
import { checkFieldValues, cleanStyle, defaultStyle } from '../../src/domain/markers'
import { LAYER_PERMISSIONS, PERM, PERMISSION_CATALOGUE, canOnLayer, layerAllows, layersForAddingMarkers } from '../../src/domain/permissions'
import type { LayerField } from '../../types/mapdata'

const admin = { is_admin: true, is_manager: false }
const manager = { is_admin: false, is_manager: true }
const member = { is_admin: false, is_manager: false }

describe('permission decisions', () => {
  it('lets the administrator and managers do everything on any layer', () => {
    expect(canOnLayer(admin, [], PERM.MARKER_DELETE)).toBe(true)
    expect(canOnLayer(manager, [], PERM.LAYER_IMPORT)).toBe(true)
  })
  it('lets a member do only what the layer grants them', () => {
    expect(canOnLayer(member, [PERM.MARKER_ADD], PERM.MARKER_ADD)).toBe(true)
    expect(canOnLayer(member, [PERM.MARKER_ADD], PERM.MARKER_DELETE)).toBe(false)
  })
  it('offers for new markers only non-folder layers where the user is manager or holds marker-add (SPEC 6)', () => {
    const layers = [
      { id: 1, type: 0 as const, manager: true, layer_opts: [] },
      { id: 2, type: 1 as const, manager: false, layer_opts: [PERM.MARKER_ADD] },
      { id: 3, type: 2 as const, manager: false, layer_opts: [PERM.MARKER_EDIT] },
      { id: 4, type: 3 as const, manager: true, layer_opts: [] },
    ]
    expect(layersForAddingMarkers(layers).map((l) => l.id)).toEqual([2, 4])
    expect(layerAllows(layers[2], PERM.MARKER_EDIT)).toBe(true)
  })
  it('has the SPEC 3 catalogue: modules, layer, marker, note, sign, routing, oplog and task ids', () => {
    const ids = PERMISSION_CATALOGUE.map((p) => p.id)
    for (const m of ['map', 'logistics', 'routing', 'dispatch', 'print', 'log', 'share']) expect(ids).toContain(`module_${m}`)
    for (const a of ['add', 'edit', 'delete', 'share', 'field', 'export', 'import', 'log', 'data_list']) expect(ids).toContain(`layer_${a}`)
    for (const a of ['add', 'edit', 'delete', 'range_search']) expect(ids).toContain(`marker_${a}`)
    for (const a of ['list', 'add', 'edit', 'delete']) expect(ids).toContain(`note_${a}`)
    expect(ids).toEqual(expect.arrayContaining(['sign_list', 'routing_add', 'routing_delete', 'routing_share', 'oplog', 'task_add', 'task_delete']))
    expect(new Set(ids).size).toBe(ids.length)
    for (const p of LAYER_PERMISSIONS) expect(ids).toContain(p)
  })
})

describe('marker defaults and style (SPEC 9, DESIGN 9)', () => {
  it('defaults to #165DFF with size 32 for points and 2 for lines and areas', () => {
    expect(defaultStyle(0)).toMatchObject({ color: '#165DFF', size: 32 })
    expect(defaultStyle(1)).toMatchObject({ color: '#165DFF', size: 2 })
    expect(defaultStyle(2)).toMatchObject({ dashed: true })
    expect(defaultStyle(3)).toMatchObject({ size: 2, fill_color: '#165DFF' })
  })
  it('drops unknown style keys and clamps values', () => {
    expect(cleanStyle({ color: '#ff0000', evil: '<script>', opacity: 3, size: 0, dashed: 'yes' })).toEqual({ color: '#FF0000', opacity: 1, size: 1 })
    expect(cleanStyle('nonsense')).toEqual({})
  })
})

describe('custom field values', () => {
  const f = (id: number, kind: LayerField['kind'], extra: Partial<LayerField> = {}): LayerField => ({
    id,
    layer_id: 1,
    name: `字段${id}`,
    kind,
    options: [],
    required: false,
    sort: id,
    rev: 1,
    ...extra,
  })
  const fields = [f(1, 'text', { required: true }), f(2, 'number'), f(3, 'date'), f(4, 'choice', { options: ['是', '否'] }), f(5, 'phone'), f(6, 'photo')]

  it('keeps valid values, normalised, and drops values of unknown fields', () => {
    const r = checkFieldValues(fields, { 1: ' 门店 ', 2: '12.5', 3: '2026-11-22', 4: '是', 5: '138 0013 8000', 6: ['/files/1/0123456789abcdef0123456789abcdef.jpg'], 99: 'x' })
    expect(r).toEqual({ ok: true, values: { 1: '门店', 2: 12.5, 3: '2026-11-22', 4: '是', 5: '13800138000', 6: ['/files/1/0123456789abcdef0123456789abcdef.jpg'] } })
  })
  it('names the field that is wrong', () => {
    expect(checkFieldValues(fields, {})).toEqual({ ok: false, error: MAP_MSG.fieldRequired('字段1') })
    expect(checkFieldValues(fields, { 1: 'a', 2: 'abc' })).toEqual({ ok: false, error: MAP_MSG.fieldNumber('字段2') })
    expect(checkFieldValues(fields, { 1: 'a', 3: '22/11/2026' })).toEqual({ ok: false, error: MAP_MSG.fieldDate('字段3') })
    expect(checkFieldValues(fields, { 1: 'a', 4: '也许' })).toEqual({ ok: false, error: MAP_MSG.fieldChoice('字段4') })
    expect(checkFieldValues(fields, { 1: 'a', 5: '12345' })).toEqual({ ok: false, error: MAP_MSG.fieldPhone('字段5') })
  })
})
