/**
 * Table shapes as Kysely sees them. Booleans are integers 0/1 and timestamps ISO-8601 text so that
 * SQLite and PostgreSQL store, compare and return the same values.
 */
import type { Generated, Insertable, Selectable } from 'kysely'

export interface UsersTable {
  id: Generated<number>
  phone: string
  nickname: string
  avatar: string
  uid: string
  source: string
  /** 0 when the user has not selected (or has no) group. */
  select_groupid: number
  created_at: string
  updated_at: string
  /** 1: the user's position goes to their selected group's members; 0: they turned it off. */
  share_location: Generated<number>
}

export interface GroupsTable {
  id: Generated<number>
  name: string
  owner_id: number
  level: number
  vip_exp: string | null
  marker_limit: number
  join_limit: number
  /** KB units (SPEC 3: file_rep_size). */
  file_size_limit: number
  created_at: string
  /** The code others join with (/api/group/invite/code); null until first asked for. */
  invite_code: string | null
}

export interface JoinsTable {
  id: Generated<number>
  group_id: number
  user_id: number
  /** 0 when the member is in no department. */
  department_id: number
  is_manager: number
  created_at: string
}

export interface UserLocationsTable {
  user_id: number
  lng: number
  lat: number
  addr: string
  at: string
  /** The group selected when the position was reported: only that group is served it. */
  group_id: number
}

export interface SessionsTable {
  id: Generated<number>
  token_hash: string
  user_id: number
  created_at: string
  last_seen_at: string
  revoked_at: string | null
  /** The sign-in's header.device and header.os (the list of signed-in devices). */
  device: Generated<string>
  os: Generated<string>
}

export interface SmsCodesTable {
  id: Generated<number>
  phone: string
  code_hash: string
  created_at: string
  expires_at: string
  wrong_tries: number
  used_at: string | null
}

export interface SystemConfigTable {
  id: number
  logo: string
  brand: string
  show_phone: number
  sign_radius: number
  show_marker_cluster_count: number
  service_phone: Generated<string>
  service_url: Generated<string>
}

export interface Tables {
  users: UsersTable
  groups: GroupsTable
  joins: JoinsTable
  user_locations: UserLocationsTable
  sessions: SessionsTable
  sms_codes: SmsCodesTable
  system_config: SystemConfigTable
}

export type UserRow = Selectable<UsersTable>
export type GroupRow = Selectable<GroupsTable>
export type JoinRow = Selectable<JoinsTable>
export type SessionRow = Selectable<SessionsTable>
export type SmsCodeRow = Selectable<SmsCodesTable>
export type SystemConfigRow = Selectable<SystemConfigTable>
export type NewGroup = Insertable<GroupsTable>
