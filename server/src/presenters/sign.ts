/** Check-in rows -> SignRecord (types/signs.ts); whether a record still holds is services/signs.ts's verification. */
import type { SignRecord, SignTarget, SignVerifyFailure } from '../../../types/signs'
import type { SignRow } from '../db/signs'

export function parsePhotos(text: string): { url: string; sha256: string }[] {
  try {
    const v = JSON.parse(text)
    if (!Array.isArray(v)) return []
    return v.filter((p): p is { url: string; sha256: string } => !!p && typeof p.url === 'string' && typeof p.sha256 === 'string').map((p) => ({ url: p.url, sha256: p.sha256 }))
  } catch {
    return []
  }
}

export function targetOfRow(row: SignRow): SignTarget {
  const kind = row.target_kind === 'marker' || row.target_kind === 'task' ? row.target_kind : 'free'
  return { kind, marker_id: row.marker_id, task_id: row.task_id, name: row.target_name, lng: row.target_lng, lat: row.target_lat }
}

export function presentSign(row: SignRow, nickname: string, failure: SignVerifyFailure | null): SignRecord {
  return {
    id: row.id,
    code: row.code,
    user: { id: row.user_id, nickname },
    time: row.time,
    lng: row.lng,
    lat: row.lat,
    addr: row.addr,
    target: targetOfRow(row),
    distance: row.distance,
    radius: row.radius,
    photos: parsePhotos(row.photos),
    remark: row.remark,
    verified: failure === null,
    verify_failure: failure,
  }
}
