/** Wire shapes of shares (types/share.ts); pure functions of loaded rows. The password (hash and salt) never leaves. */
import type { Share, ShareKind, ShareMeta, SharedLayer, SharedMapStyle } from '../../../types/share'
import type { TitleStyleLook } from '../../../types/mapdata'
import { isShareExpired } from '../../../src/domain/share'
import type { LayerRow } from '../db/layers'
import type { ShareRow } from '../db/shares'

function parseIds(text: string): number[] {
  try {
    const value: unknown = JSON.parse(text)
    return Array.isArray(value) ? value.filter((v): v is number => Number.isInteger(v)) : []
  } catch {
    return []
  }
}

function parseStyle(text: string | null): SharedMapStyle | null {
  if (!text) return null
  try {
    const value: unknown = JSON.parse(text)
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as SharedMapStyle) : null
  } catch {
    return null
  }
}

export function shareDataIds(row: Pick<ShareRow, 'data_ids'>): number[] {
  return parseIds(row.data_ids)
}

/** A share as its group sees it (the management list). */
export function presentShare(row: ShareRow, opNickname: string, now: Date): Share {
  return {
    id: row.id,
    name: row.name,
    show_btn: row.show_btn,
    need_pwd: row.need_pwd === 1,
    exp: row.exp,
    expired: isShareExpired(row.exp, now),
    data_ids: parseIds(row.data_ids),
    type: row.type as ShareKind,
    style: parseStyle(row.style),
    addtime: row.created_at,
    op_user: { id: row.op_user_id, nickname: opNickname },
    group_id: row.group_id,
  }
}

/** What anybody holding the link may learn before the password. */
export function presentShareMeta(row: ShareRow, groupName: string, opNickname: string, now: Date): ShareMeta {
  return {
    id: row.id,
    name: row.name,
    type: row.type as ShareKind,
    show_btn: row.show_btn,
    need_pwd: row.need_pwd === 1,
    exp: row.exp,
    expired: isShareExpired(row.exp, now),
    style: parseStyle(row.style),
    group_name: groupName,
    op_user: { nickname: opNickname },
  }
}

/** A layer as a share shows it, with its title style (its own or the group's default). */
export function presentSharedLayer(row: LayerRow, style: TitleStyleLook | null): SharedLayer {
  return { id: row.id, name: row.name, type: row.type as SharedLayer['type'], parent_id: row.parent_id, sort: row.sort, title_style: style }
}
