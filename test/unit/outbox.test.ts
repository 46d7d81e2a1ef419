/** The outbox rules (src/domain/outbox.ts): folding, temp ids and their rewrite, failures, what waits on what. */
import { newClientId } from '../../src/domain/clientId'
import {
  blockedBy,
  classifyFailure,
  enqueue,
  keptPhoto,
  nextTempId,
  orphanPhotos,
  restored,
  retryDelay,
  rewriteMarkerId,
  rewritePhoto,
  sendable,
  type MarkerDeleteItem,
  type MarkerSaveItem,
  type NoteSaveItem,
  type OutboxItem,
  type PhotoItem,
} from '../../src/domain/outbox'
import { outboxKindLabel } from '../../src/domain/outboxMessages'
import { localMarker, nextToSend } from '../../src/domain/outboxQueue'
import { buildMarker } from '../support/mapBuilders'
import { PENDING_BADGE, PENDING_LOOK, drawnStyle } from '../../src/domain/pendingLook'
import { buildMarkerIndex } from '../../src/domain/mapDraw'
import { pointMarkup } from '../../src/platform/map/markup'
import { shapeStyle } from '../../src/platform/map/canvasLayer'

const CONFLICT = 1006

const createMarker = (id: number, name: string, cid = `m${id}`): MarkerSaveItem => ({
  kind: 'marker.save',
  client_id: cid,
  status: 'pending',
  marker_id: id,
  input: { layer_id: 1, name, type: 0, points: '116.4,39.9', client_id: cid },
})
const editMarker = (id: number, name: string, rev: number, cid = `e${id}-${name}`): MarkerSaveItem => ({
  kind: 'marker.save',
  client_id: cid,
  status: 'pending',
  marker_id: id,
  input: { id, layer_id: 1, name, type: 0, points: '116.4,39.9', rev },
})
const deleteMarker = (id: number, rev?: number): MarkerDeleteItem => ({ kind: 'marker.delete', client_id: `d${id}`, status: 'pending', marker_id: id, layer_id: 1, name: '', rev })
const createNote = (id: number, markerId: number, photos: string[] = []): NoteSaveItem => ({
  kind: 'note.save',
  client_id: `n${id}`,
  status: 'pending',
  note_id: id,
  marker_id: markerId,
  input: { marker_id: markerId, content: '备注', photos },
})
const photo = (ref: string, markerId: number): PhotoItem => ({ kind: 'photo', client_id: `p-${ref}`, status: 'pending', ref, marker_id: markerId })

const fold = (...items: OutboxItem[]) => items.reduce<OutboxItem[]>((q, it) => enqueue(q, it), [])

describe('client ids', () => {
  it('are RFC 4122 version 4 UUIDs, from crypto or, in old WebViews, from Math.random', () => {
    const v4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/
    expect(newClientId()).toMatch(v4)
    expect(newClientId((b) => b.fill(255))).toBe('ffffffff-ffff-4fff-bfff-ffffffffffff')
    expect(newClientId()).not.toBe(newClientId())
  })
})

describe('folding a change into the queue', () => {
  it('folds an edit of a queued create into the create: one save goes, with the create client_id', () => {
    const q = fold(createMarker(-1, '甲'), { ...editMarker(-1, '甲改', 0), input: { ...editMarker(-1, '甲改', 0).input, id: -1 } })
    expect(q).toHaveLength(1)
    expect(q[0]).toMatchObject({ client_id: 'm-1', marker_id: -1, input: { name: '甲改' } })
    expect((q[0] as MarkerSaveItem).input.id).toBeUndefined()
  })

  it('folds a second edit of a marker into the first, keeping the rev the first edit started from', () => {
    const q = fold(editMarker(5, '一', 3), editMarker(5, '二', 4))
    expect(q).toHaveLength(1)
    expect((q[0] as MarkerSaveItem).input).toMatchObject({ name: '二', rev: 3 })
  })

  it('does not fold into the item on the wire: the edit queues behind it', () => {
    const q = enqueue([createMarker(-1, '甲')], { ...editMarker(-1, '甲改', 0), input: { ...editMarker(-1, '甲改', 0).input, id: -1 } }, 'm-1')
    expect(q.map((it) => it.client_id)).toEqual(['m-1', 'e-1-甲改'])
  })

  it('drops a queued create, its notes and their photos when the marker is deleted before it was sent', () => {
    const q = fold(createMarker(-1, '甲'), photo('f1', -1), createNote(-2, -1, [keptPhoto('f1')]), createMarker(-3, '乙'), deleteMarker(-1))
    expect(q.map((it) => it.client_id)).toEqual(['m-3'])
  })

  it('turns edits followed by a delete into the delete alone, sent with the rev the edit started from', () => {
    const q = fold(editMarker(5, '一', 3), deleteMarker(5, 4))
    expect(q).toEqual([expect.objectContaining({ kind: 'marker.delete', marker_id: 5, rev: 3 })])
  })
})

describe('temp ids and their rewrite', () => {
  it('gives each queued create a negative id below every one in use', () => {
    expect(nextTempId([])).toBe(-1)
    expect(nextTempId([createMarker(-1, '甲'), createNote(-4, -1)], [-2])).toBe(-5)
  })

  it('points later items at the real marker once its create is answered, and an edit queued meanwhile at its rev', () => {
    const q = rewriteMarkerId([{ ...editMarker(-1, '甲改', 0), input: { ...editMarker(-1, '甲改', 0).input, id: -1 } }, createNote(-2, -1), deleteMarker(-1)], -1, 42, 1)
    expect(q[0]).toMatchObject({ marker_id: 42, input: { id: 42, rev: 1 } })
    expect(q[1]).toMatchObject({ marker_id: 42, input: { marker_id: 42 } })
    expect(q[2]).toMatchObject({ marker_id: 42, rev: 1 })
  })

  it('names the uploaded URL in the notes that waited for a kept photo', () => {
    const q = rewritePhoto([createNote(-2, 7, ['/uploads/old.jpg', keptPhoto('f1')])], 'f1', '/uploads/9.jpg')
    expect((q[0] as NoteSaveItem).input.photos).toEqual(['/uploads/old.jpg', '/uploads/9.jpg'])
  })

  it('finds photos no note needs any more', () => {
    expect(orphanPhotos([photo('f1', 7), photo('f2', 7), createNote(-2, 7, [keptPhoto('f2')])]).map((p) => p.ref)).toEqual(['f1'])
  })
})

describe('failures and what waits', () => {
  it('stops at a network failure or a server error, opens the sheet on CONFLICT, keeps business refusals, stops at a 401', () => {
    expect(classifyFailure({ kind: 'network' }, CONFLICT)).toBe('network')
    expect(classifyFailure({ kind: 'http', status: 502 }, CONFLICT)).toBe('network')
    expect(classifyFailure({ kind: 'http', status: 413 }, CONFLICT)).toBe('refused')
    expect(classifyFailure({ kind: 'business', errcode: CONFLICT }, CONFLICT)).toBe('conflict')
    expect(classifyFailure({ kind: 'business', errcode: 1004 }, CONFLICT)).toBe('refused')
    expect(classifyFailure({ kind: 'unauthorized', status: 401 }, CONFLICT)).toBe('unauthorized')
  })

  it('holds the notes and photos of a refused create, directly or through another item, and sends the rest', () => {
    const refused = { ...createMarker(-1, '超额'), status: 'refused' as const, error: '标注数量已达上限' }
    const q: OutboxItem[] = [refused, photo('f1', -1), createNote(-2, -1, [keptPhoto('f1')]), { ...createNote(-3, -9), note_id: -2, kind: 'note.save' }, createMarker(-4, '正常')]
    expect(Array.from(blockedBy(q, [refused])).sort()).toEqual(['n-2', 'n-3', 'p-f1'])
    expect(sendable(q).map((it) => it.client_id)).toEqual(['m-4'])
  })

  it('uploads the photos of a note before the note, even when picked while the note was already queued', () => {
    const q: OutboxItem[] = [createNote(-2, 7, [keptPhoto('f1')]), photo('f1', 7)]
    expect(nextToSend(q)?.client_id).toBe('p-f1')
  })

  it('waits 5 s after a failed replay, doubling up to 5 minutes', () => {
    expect(retryDelay(0)).toBe(5000)
    expect(retryDelay(1)).toBe(10000)
    expect(retryDelay(20)).toBe(300000)
  })

  it('sends again, after a restart, an item whose conflict sheet was open', () => {
    expect(restored([{ ...createMarker(-1, '甲'), status: 'conflict' }, null, 'x'])).toEqual([expect.objectContaining({ client_id: 'm-1', status: 'pending' })])
    expect(restored(undefined)).toEqual([])
  })
})

describe('what the phone shows for a queued save', () => {
  it('shows a queued edit over the marker it started from, flagged pending, and names the kind', () => {
    const base = buildMarker({ id: 5, name: '旧名', rev: 3, creator_name: '老李' })
    const it = { ...editMarker(5, '新名', 3), base }
    expect(localMarker(it, { id: 7, name: '小王' }, '2026-11-26T00:00:00.000Z')).toMatchObject({ id: 5, name: '新名', rev: 3, creator_name: '老李', pending: true })
    expect(outboxKindLabel(it)).toBe('修改标注')
    expect(outboxKindLabel(createMarker(-1, '甲'))).toBe('新建标注')
    expect(outboxKindLabel(deleteMarker(5))).toBe('删除标注')
  })
})

describe('the pending look on the map', () => {
  const pending = <T extends object>(m: T) => ({ ...m, pending: true })

  it('draws a pending area grey, translucent and dashed, whatever its own style; a synced one as styled', () => {
    const area = buildMarker({ id: 9, type: 3, points: '116.1,39.1|116.2,39.1|116.2,39.2', style: { color: '#F53F3F', fill_color: '#F53F3F' } })
    const [synced, queued] = buildMarkerIndex([area, pending({ ...area, id: -1 })]).shapes
    expect(shapeStyle(synced, false)).toMatchObject({ color: '#F53F3F', dash: null })
    expect(shapeStyle(queued, false)).toMatchObject({ color: PENDING_LOOK.color, fillColor: PENDING_LOOK.fill_color, opacity: PENDING_LOOK.opacity, dash: [8, 6] })
    expect(drawnStyle(area)).toEqual(area.style)
  })

  it('gives a pending point a 待同步 badge and a faded pin', () => {
    const point = buildMarker({ id: -1, name: '新点' })
    expect(pointMarkup(pending(point), false, undefined).html).toContain(PENDING_BADGE)
    expect(pointMarkup(pending(point), false, undefined).html).toContain('map-point--pending')
    expect(pointMarkup(pending(point), false, undefined).html).toContain(`background:${PENDING_LOOK.color}`)
    expect(pointMarkup(point, false, undefined).html).not.toContain(PENDING_BADGE)
  })
})
