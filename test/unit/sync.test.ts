/** Live sync, the pure rules (src/domain/sync.ts): backoff, planning pulled changes, applying them, conflicts field by field. */
import type { SyncChange } from '../../types/sync'
import * as contract from '../../types/sync'
import * as domain from '../../src/domain/sync'
import type { Marker } from '../../types/mapdata'
import {
  RECONNECT_MAX_MS,
  applyMarkerChanges,
  collapseChanges,
  conflictRows,
  facetsOf,
  fieldFacet,
  inputFromFacets,
  markerFacets,
  markerFromFacets,
  mergeFacets,
  planChanges,
  reconnectDelay,
  sameValue,
  socketUrl,
  type HeldState,
} from '../../src/domain/sync'
import { SYNC_MSG } from '../../src/domain/syncMessages'
import { buildMarker } from '../support/mapBuilders'

const change = (over: Partial<SyncChange>): SyncChange => ({ seq: 1, kind: 'marker', id: 1, op: 'upsert', rev: 2, layer_id: 1, ...over })

function held(over: Partial<HeldState> & { revs?: Record<string, number> } = {}): HeldState {
  return {
    rev: (kind, id) => over.revs?.[`${kind}:${id}`],
    markerLayerLoaded: over.markerLayerLoaded ?? ((id) => id === 1),
    notesLoaded: over.notesLoaded ?? (() => false),
    fieldsLoaded: over.fieldsLoaded ?? (() => false),
  }
}

describe('the contract restated for the app bundles', () => {
  it('pings and polls at the intervals of types/sync.ts', () => {
    expect(domain.SYNC_PING_INTERVAL_MS).toBe(contract.SYNC_PING_INTERVAL_MS)
    expect(domain.SYNC_POLL_INTERVAL_MS).toBe(contract.SYNC_POLL_INTERVAL_MS)
  })
})

describe('reconnect backoff', () => {
  it('waits 1 s after a drop, doubling on every failed attempt up to 30 s', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 50].map(reconnectDelay)).toEqual([1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000])
    expect(RECONNECT_MAX_MS).toBe(30_000)
  })
})

describe('socket address', () => {
  it('is the API base with http turned into ws, and stays relative on the same origin', () => {
    expect(socketUrl('https://api.example.cn')).toBe('wss://api.example.cn/api/sync/socket')
    expect(socketUrl('http://127.0.0.1:3000')).toBe('ws://127.0.0.1:3000/api/sync/socket')
    expect(socketUrl('')).toBe('/api/sync/socket')
  })
})

describe('planning pulled changes', () => {
  it('keeps only the last change of each entity', () => {
    const out = collapseChanges([change({ seq: 1, rev: 2 }), change({ seq: 3, rev: 4 }), change({ seq: 2, id: 2 }), change({ seq: 4, rev: 5, op: 'delete' })])
    expect(out.map((c) => [c.id, c.seq, c.op])).toEqual([
      [2, 2, 'upsert'],
      [1, 4, 'delete'],
    ])
  })

  it('fetches markers held or in a loaded layer, drops deleted ones held, and skips its own echo by rev', () => {
    const plan = planChanges(
      [
        change({ seq: 1, id: 10, rev: 3 }), // held at rev 2: newer
        change({ seq: 2, id: 11, rev: 2 }), // held at rev 2: my own save coming back
        change({ seq: 3, id: 12, rev: 1 }), // new, in loaded layer 1
        change({ seq: 4, id: 13, rev: 1, layer_id: 9 }), // new, in a layer not loaded: nothing to do
        change({ seq: 5, id: 14, rev: 4, op: 'delete' }), // held: goes
        change({ seq: 6, id: 15, rev: 4, op: 'delete' }), // not held: nothing to do
      ],
      held({ revs: { 'marker:10': 2, 'marker:11': 2, 'marker:14': 3 } }),
    )
    expect(plan.markerFetch).toEqual([10, 12])
    expect(plan.markerDrop).toEqual([14])
    expect(plan.layers).toBe(false)
  })

  it('refetches the layer list for any layer change and drops deleted layers', () => {
    const plan = planChanges([change({ kind: 'layer', id: 5, layer_id: 5, op: 'delete' }), change({ seq: 2, kind: 'layer', id: 6, layer_id: 6 })], held())
    expect(plan.layers).toBe(true)
    expect(plan.layerDrop).toEqual([5])
  })

  it('refreshes notes of markers shown, fields of layers kept, and title styles', () => {
    const plan = planChanges(
      [
        change({ kind: 'note', id: 1, marker_id: 7 }),
        change({ seq: 2, kind: 'note', id: 2, marker_id: 8 }),
        change({ seq: 3, kind: 'field', id: 3, layer_id: 1 }),
        change({ seq: 4, kind: 'field', id: 4, layer_id: 2 }),
        change({ seq: 5, kind: 'title_style', id: 1, layer_id: 0 }),
      ],
      held({ notesLoaded: (m) => m === 7, fieldsLoaded: (l) => l === 1 }),
    )
    expect(plan.noteMarkers).toEqual([7])
    expect(plan.fieldLayers).toEqual([1])
    expect(plan.titleStyles).toBe(true)
  })
})

describe('applying marker changes in place', () => {
  const a = buildMarker({ id: 1, layer_id: 1, rev: 1 })
  const b = buildMarker({ id: 2, layer_id: 1, rev: 1 })
  const c = buildMarker({ id: 3, layer_id: 2, rev: 1 })
  const byLayer = new Map<number, Marker[]>([
    [1, [a, b]],
    [2, [c]],
  ])

  it('replaces a newer copy, adds a new one, removes a deleted one, and leaves untouched layers as they were', () => {
    const next = applyMarkerChanges(byLayer, [{ ...a, rev: 2, name: '新名' }, buildMarker({ id: 4, layer_id: 1, rev: 1 })], [2])
    expect(next.get(1)!.map((m) => [m.id, m.name])).toEqual([
      [1, '新名'],
      [4, '标注'],
    ])
    expect(next.get(2)).toBe(byLayer.get(2))
  })

  it('moves a marker to its new layer, and keeps an as-new copy', () => {
    const next = applyMarkerChanges(byLayer, [{ ...a, rev: 2, layer_id: 2 }, b], [])
    expect(next.get(1)!.map((m) => m.id)).toEqual([2])
    expect(next.get(2)!.map((m) => m.id)).toEqual([3, 1])
    expect(next.get(1)![0]).toBe(b)
  })

  it('puts a marker in a layer not loaded only when allowed', () => {
    expect(applyMarkerChanges(byLayer, [buildMarker({ id: 9, layer_id: 5 })], []).has(5)).toBe(false)
    expect(
      applyMarkerChanges(byLayer, [buildMarker({ id: 9, layer_id: 5 })], [], (l) => l === 5)
        .get(5)!
        .map((m) => m.id),
    ).toEqual([9])
  })

  it('returns the same map when nothing changes', () => {
    expect(applyMarkerChanges(byLayer, [a], [])).toBe(byLayer)
  })
})

describe('conflicts field by field', () => {
  const base = buildMarker({ id: 1, name: '仓库', points: '116.1,39.1', style: { color: '#165DFF' }, width: 32, fields: { 11: '张三', 12: '1' }, rev: 1 })

  it('compares values as data: key order, missing and null alike', () => {
    expect(sameValue({ a: 1, b: null }, { a: 1 })).toBe(true)
    expect(sameValue({ a: 1, b: 2 }, { b: 2, a: 1 })).toBe(true)
    expect(sameValue('', null)).toBe(true)
    expect(sameValue([1, 2], [2, 1])).toBe(false)
  })

  it('lists the parts that differ, who changed each, and picks mine only where I changed it', () => {
    const theirs = { ...base, rev: 2, points: '116.2,39.2', fields: { 11: '李四', 12: '1' } }
    const mine = { ...base, name: '一号仓库', fields: { 11: '王五', 12: '1' } }
    const rows = conflictRows(markerFacets(base), markerFacets(mine), markerFacets(theirs))
    const byKey = Object.fromEntries(rows.map((r) => [r.key, r]))
    expect(Object.keys(byKey).sort()).toEqual([fieldFacet(11), 'geometry', 'name'].sort())
    expect(byKey.name).toMatchObject({ mineChanged: true, theirsChanged: false, pick: 'mine' })
    expect(byKey.geometry).toMatchObject({ mineChanged: false, theirsChanged: true, pick: 'theirs' })
    expect(byKey[fieldFacet(11)]).toMatchObject({ mineChanged: true, theirsChanged: true, pick: 'mine', theirs: '李四', mine: '王五' })
  })

  it('without the base every difference counts as changed on both sides', () => {
    const rows = conflictRows(null, markerFacets({ ...base, name: 'A' }), markerFacets({ ...base, name: 'B' }))
    expect(rows).toEqual([{ key: 'name', theirs: 'B', mine: 'A', mineChanged: true, theirsChanged: true, pick: 'mine' }])
  })

  it('merges: theirs with my value where picked, saved over their rev', () => {
    const theirs = { ...base, rev: 5, points: '116.2,39.2', fields: { 11: '李四', 12: '1' } }
    const mine = { ...base, name: '一号仓库', fields: { 11: '王五', 12: '2' } }
    const merged = mergeFacets(markerFacets(mine), markerFacets(theirs), { name: 'mine', geometry: 'theirs', [fieldFacet(11)]: 'theirs', [fieldFacet(12)]: 'mine' })
    const input = markerFromFacets(merged, 1, 5)
    expect(input).toMatchObject({ id: 1, rev: 5, name: '一号仓库', points: '116.2,39.2', fields: { 11: '李四', 12: '2' }, width: 32, style: { color: '#165DFF' } })
  })

  it('handles notes, layers, fields and title styles as their parts', () => {
    expect(facetsOf('note', { id: 1, content: '门口有狗', photos: [], rev: 2 })).toEqual({ content: '门口有狗', photos: [] })
    expect(facetsOf('layer', { id: 1, name: '客户', parent_id: 0, rev: 2 })).toEqual({ name: '客户', parent_id: 0 })
    expect(facetsOf('title_style', { id: 1, layer_id: 2, rev: 3, font_size: 12, color: '#000' })).toEqual({ look: { font_size: 12, color: '#000' } })
    expect(inputFromFacets('note', { content: '新', photos: [] }, { id: 1, marker_id: 9, content: '旧', rev: 1 }, 1, 4)).toEqual({ id: 1, marker_id: 9, content: '新', photos: [], rev: 4 })
    // Recreated: no id, no rev.
    expect(inputFromFacets('layer', { name: '客户', parent_id: 0 }, { id: 3, name: '客户', rev: 1 }, undefined, undefined)).toEqual({ name: '客户', parent_id: 0 })
  })

  it('says who edits a marker and what was deleted in Chinese', () => {
    expect(SYNC_MSG.editing(['张三'])).toBe('张三正在编辑')
    expect(SYNC_MSG.deleted('标注')).toBe('该标注已被他人删除')
    expect(SYNC_MSG.online(2)).toBe('2人在线')
  })
})
