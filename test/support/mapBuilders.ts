/** Domain builders for the map-data store tests (DESIGN 8: buildLayer(), buildMarker()). */
import type { Layer, LayerField, Marker, Note, OpLog } from '../../types/mapdata'
import type { UserInfo } from '../../types/entities'
import type { Scheduler } from '../../src/stores/GroupRefreshStore'
import { buildLogin, makeRoot, ok, type Handler } from './fakes'

let seq = 1000
const nextId = () => ++seq
const NOW = '2026-11-22T08:00:00.000Z'

export function buildLayer(over: Partial<Layer> = {}): Layer {
  return {
    id: nextId(),
    name: '图层',
    parent_id: 0,
    type: 1,
    marker_count: 0,
    show: true,
    manager: true,
    layer_opts: [],
    sort: 0,
    is_default: false,
    rev: 1,
    created_at: NOW,
    updated_at: NOW,
    ...over,
  }
}

export function buildMarker(over: Partial<Marker> = {}): Marker {
  return {
    id: nextId(),
    layer_id: 1,
    name: '标注',
    type: 0,
    points: '116.397428,39.90923',
    style: { color: '#165DFF', size: 32 },
    width: 32,
    radius: 0,
    sort: 0,
    fields: {},
    creator_id: 7,
    creator_name: '小王',
    rev: 1,
    created_at: NOW,
    updated_at: NOW,
    ...over,
  }
}

export function buildField(over: Partial<LayerField> = {}): LayerField {
  return { id: nextId(), layer_id: 1, name: '字段', kind: 'text', options: [], required: false, sort: 0, rev: 1, ...over }
}

export function buildNote(over: Partial<Note> = {}): Note {
  return { id: nextId(), marker_id: 1, content: '备注', photos: [], user_id: 7, user_name: '小王', rev: 1, created_at: NOW, updated_at: NOW, ...over }
}

export function buildOpLog(over: Partial<OpLog> = {}): OpLog {
  return {
    id: nextId(),
    at: NOW,
    user_id: 7,
    user_name: '小王',
    entity: 'marker',
    entity_id: 1,
    action: 'delete',
    name: '标注',
    before: null,
    after: null,
    restorable: false,
    ...over,
  }
}

/** A signed-in RootStore (manager by default) with the given handlers. */
export async function signedInRoot(handlers: Record<string, Handler> = {}, opts: { storage?: Record<string, string>; admin?: boolean; user?: Partial<UserInfo>; scheduler?: Scheduler } = {}) {
  const login = buildLogin(opts.user)
  login.is_admin = opts.admin ?? true
  const made = makeRoot({ '/api/user/login': () => ok(login), ...handlers }, { storage: opts.storage, scheduler: opts.scheduler })
  await made.root.session.login('13800138000', '123456')
  made.calls.length = 0
  return made
}
