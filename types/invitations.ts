/** A team's invitation of the signed-in user's phone (/api/user/invite/getlist), waiting for their answer. */
export interface Invitation {
  id: number
  group_id: number
  group_name: string
  /** Who invited them ('' when that account is gone). */
  inviter_nickname: string
  created_at: string
}

/** A signed-in device of the user (/api/user/session/getlist). */
export interface SignedInDevice {
  id: number
  /** header.device and header.os of its sign-in (src/domain/devices.ts names them). */
  device: string
  os: string
  created_at: string
  last_seen_at: string
  /** The session making this call. */
  current: boolean
}
