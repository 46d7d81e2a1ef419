/**
 * The share contract (SPEC 3 "Share", SPEC 7 share calls). Share ids are random URL-safe
 * strings of at least 10 characters (DESIGN 9). The password is never returned.
 */
import type { MarkerPageFormat, Paged } from './api'
import type { Layer, Marker, TitleStyleLook } from './mapdata'

export type ShareKind = 1 | 2 | 3

/** The map style attached with flag 64 (the sharer's AppStore.map_style). */
export interface SharedMapStyle {
  type: number
  bg: boolean
  road: boolean
  building: boolean
  poi: boolean
  traffic: boolean
}

/** A share as its group sees it (management list, getbyid for members). */
export interface Share {
  id: string
  name: string
  show_btn: number
  need_pwd: boolean
  /** Last day the share works, 'YYYY-MM-DD' (Asia/Shanghai), or null for no expiry. */
  exp: string | null
  expired: boolean
  data_ids: number[]
  type: ShareKind
  style: SharedMapStyle | null
  /** ISO 8601 creation time. */
  addtime: string
  op_user: { id: number; nickname: string }
  group_id: number
}

/** What anybody holding the link may learn before the password (/api/share/getbyid, public). */
export interface ShareMeta {
  id: string
  name: string
  type: ShareKind
  show_btn: number
  need_pwd: boolean
  exp: string | null
  expired: boolean
  style: SharedMapStyle | null
  group_name: string
  op_user: { nickname: string }
}

/** Layers as a share shows them (only the shared ones, with their title styles). */
export interface SharedLayer extends Pick<Layer, 'id' | 'name' | 'type' | 'parent_id' | 'sort'> {
  title_style: TitleStyleLook | null
}

export interface ShareApi {
  /** Creates a share of the caller's group; data is the new share id. */
  '/api/share/save': {
    req: { name: string; show_btn: number; need_pwd: boolean; pwd?: string; exp?: string | null; data_ids: number[]; type: ShareKind; style?: SharedMapStyle | null }
    res: string
  }
  /** Public (no session needed): the share's meta; NOT_FOUND for an unknown or deleted share, EXPIRED (with meta in the message) for an expired one. */
  '/api/share/getbyid': { req: { id: string }; res: ShareMeta }
  /** The group's shares, newest first; op_userid limits to one creator (members only ever see their own). */
  '/api/share/getlist/group': { req: { op_userid?: number; type?: ShareKind; pageindex?: number; pagesize?: number }; res: Paged<Share> }
  '/api/share/delete': { req: { id: string }; res: null }
  /** Public: proves the password; the proof is sent with the data calls as `proof` (short-lived, signed, for this share only). */
  '/api/share/check/pwd': { req: { id: string; pwd: string }; res: { proof: string; expires_at: string } }
  /** Public: the shared layers (a layer share: its layers; a marker share: the layers of its markers). layer_ids narrows. */
  '/api/layer/get/share': { req: { share_id: string; layer_ids?: number[]; proof?: string }; res: SharedLayer[] }
  /** Public: the shared markers in pages (pagesize at most 5000); marker_ids / layer_ids narrow, never widen. `format` as /api/marker/getlist's. */
  '/api/marker/get/share': {
    req: { share_id: string; marker_ids?: number[]; layer_ids?: number[]; pageindex?: number; pagesize?: number; proof?: string; format?: MarkerPageFormat }
    res: Paged<Marker>
  }
}
