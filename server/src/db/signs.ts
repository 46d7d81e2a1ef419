/** Repository of the signs table (issue 8 check-ins; migration 0011, types/signs.ts). */
import type { Generated, Selectable } from 'kysely'

export interface SignsTable {
  id: Generated<number>
  group_id: number
  user_id: number
  nonce: string
  code: string
  /** 'marker' | 'task' | 'free' */
  target_kind: string
  marker_id: number | null
  task_id: number | null
  target_name: string
  target_lng: number | null
  target_lat: number | null
  lng: number
  lat: number
  addr: string
  distance: number | null
  radius: number
  /** JSON array of {url, sha256}. */
  photos: string
  remark: string
  time: string
  created_at: string
  signature: string
}

declare module './schema' {
  interface Tables {
    signs: SignsTable
  }
}

export type SignRow = Selectable<SignsTable>
