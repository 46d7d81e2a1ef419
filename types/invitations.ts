import type { LoginResult } from './entities'

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

/** The calls of invitations, signed-in devices and position sharing (request without header, and `data`). */
export interface ConsentApi {
  '/api/user/invite/getlist': { req: Record<string, never>; res: { list: Invitation[] } }
  /** Joins the invitation's team and selects it; answers the new login result. */
  '/api/user/invite/accept': { req: { id: number }; res: LoginResult }
  '/api/user/invite/decline': { req: { id: number }; res: null }
  '/api/user/session/getlist': { req: Record<string, never>; res: { list: SignedInDevice[] } }
  '/api/user/session/revoke/others': { req: Record<string, never>; res: { revoked: number } }
  '/api/user/location/setting/get': { req: Record<string, never>; res: { share: boolean } }
  '/api/user/location/setting': { req: { share: boolean }; res: { share: boolean } }
}
