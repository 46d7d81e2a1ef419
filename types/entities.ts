/** Entities shared by the app and the server (SPEC section 3). Dates are ISO 8601 strings. */

/** Membership levels (SPEC 4): 0 free, 1 trial, 2 VIP 1, 3 VIP 2, 4 VIP 3. */
export type Level = 0 | 1 | 2 | 3 | 4

export interface GroupVip {
  group_vip_exp: string | null
  level: Level
  nickname: string
  phone: string
  marker_limit: number
  join_limit: number
  file_size_limit: number
}

/** A module or group action the user holds (ids of the group-level catalogue, types/teams.ts ModuleItem). */
export interface ModuleRef {
  id: string
  name?: string
}

export interface UserInfo {
  id: number
  nickname: string
  avatar: string
  uid: string
  phone: string
  token: string
  level: Level
  select_groupid: number
  select_groupname: string
  is_manager: boolean
  verifyed: boolean
  group_vip: GroupVip | null
  department_manager: boolean
  source: string
  modules: ModuleRef[]
  vip_exp: string | null
}

export interface LoginResult {
  is_admin: boolean
  admin_vip_expired: boolean
  user: UserInfo
}

export interface SystemConfig {
  id: number
  logo: string
  brand: string
  show_phone: boolean
  sign_radius: number
  show_marker_cluster_count: boolean
  /** Customer service (beyond the SPEC): a phone number and a chat-service link; '' when not set. */
  service_phone: string
  service_url: string
}

export interface GroupInfo {
  id: number
  name: string
  owner_id: number
  level: Level
  vip_exp: string | null
  marker_limit: number
  join_limit: number
  file_size_limit: number
  /** Members, the administrator included (join_limit counts collaborators, the administrator not included). */
  member_count: number
  is_admin: boolean
}

export interface ExpiredInfo {
  expired: boolean
  is_admin: boolean
  admin_vip_expired: boolean
  vip_exp: string | null
  level: Level
}

/** A member's last reported position (SPEC 3 join-location record: user, time, lng, lat). */
export interface MemberLocation {
  user: { id: number; nickname: string; avatar: string }
  /** ISO 8601 time of the report. */
  time: string
  lng: number
  lat: number
  addr: string
}
