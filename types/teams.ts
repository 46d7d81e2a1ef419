/**
 * The teams contract (SPEC 1, 3, 6, 7): members (joins), nested departments, roles and
 * modules. Shared by the app and the server; the Api interface in api.ts extends TeamsApi.
 */
import type { LoginResult } from './entities'

/** One member of the selected group (SPEC 3 "Join": user, department_id). */
export interface Member {
  join_id: number
  user: { id: number; nickname: string; avatar: string; phone: string }
  /** 0 when the member is in no department. */
  department_id: number
  /** The group's administrator (owner). */
  is_admin: boolean
  /** A group manager (is_manager); the administrator is one too. */
  is_manager: boolean
  /** Ids of the departments this member manages. */
  managed_department_ids: number[]
  role_ids: number[]
  /** ISO 8601 time of joining. */
  created_at: string
}

/**
 * Who a phone or account number (uid) belongs to, as a team's administrator or manager sees it
 * before adding them (/api/user/get/overview/phoneuid). Nothing else of the person: not their
 * id, their full phone, nor which other teams they are in.
 */
export interface PersonOverview {
  nickname: string
  avatar: string
  uid: string
  /** Masked: 138****5678. */
  phone: string
  /** Already a member of the caller's selected team. */
  is_member: boolean
}

/** A person pre-registered by phone (/api/user/pre/register) who has not signed in yet. */
export interface PendingMember {
  id: number
  nickname: string
  phone: string
  department_id: number
  created_at: string
}

export interface JoinsOverview {
  list: Member[]
  pending: PendingMember[]
  /** Collaborators: members but the administrator, plus pending pre-registrations; what join_limit counts (src/domain/collaborators). */
  count: number
  /** Collaborators allowed, the administrator not included. */
  join_limit: number
}

/** The permission ids one department holds on one layer (layer authorisation per department). */
export interface DepartmentLayerAuth {
  layer_id: number
  opts: string[]
}

/** SPEC 3 "Department": id, name, parent_id, managers (user ids), layer_ids; nested to any depth. */
export interface Department {
  id: number
  name: string
  /** 0 for a top-level department. */
  parent_id: number
  sort: number
  /** User ids of the department's managers. */
  managers: number[]
  /** Layers authorised to the department (the layer ids of layer_auth). */
  layer_ids: number[]
  layer_auth: DepartmentLayerAuth[]
}

/** SPEC 3 "Role": id, assigned user ids, module ids. */
export interface Role {
  id: number
  name: string
  user_ids: number[]
  /** Ids of the group-level catalogue (modules and group actions), see ModuleItem. */
  module_ids: string[]
}

/** One entry of the group-level catalogue (/api/module/getlist). */
export interface ModuleItem {
  id: string
  name: string
  /** 1 feature module (map, logistics, routing, dispatch, print, log, share); 2 group action (new layer, sign list, routes, log, tasks). */
  type: 1 | 2
  /** Needs a VIP tier (the free tier lists it, locked). */
  vip: boolean
  /** Always granted; the tree selection cannot untick it ('{item}必须授权，无法取消'). */
  mandatory: boolean
  /** Usable by the group at its current tier (false: shown locked on the free tier). */
  enabled: boolean
}

/** A group the user belongs to (for switching). */
export interface GroupSummary {
  id: number
  name: string
  is_admin: boolean
  member_count: number
  selected: boolean
}

export interface TeamsApi {
  /** Members of the selected group with pre-registered people still to come. */
  '/api/group/get/joins': { req: Record<string, never>; res: JoinsOverview }
  /** Removes a member (not the administrator); their access ends at once. */
  '/api/group/remove/join': { req: { join_id: number }; res: null }
  /** Leaves the selected group (not its administrator) and switches to the caller's own map. */
  '/api/group/quit': { req: Record<string, never>; res: LoginResult }
  /** Makes a member a group manager or not (administrator only). */
  '/api/group/join/setting/manager': { req: { join_id: number; is_manager: boolean }; res: Member }
  /** Moves a member to a department (0: none). */
  '/api/group/setting/join': { req: { join_id: number; department_id: number }; res: Member }
  /** The group's invite code (created on first call; reset:true issues a new one and kills the old). */
  '/api/group/invite/code': { req: { reset?: boolean }; res: { code: string } }
  /** What an invite code leads to, before joining. */
  '/api/group/invite/info': {
    req: { code: string }
    /** member_count: members, the administrator included; collaborator_count: what join_limit (collaborators) counts, pending people included. */
    res: { group_id: number; group_name: string; owner_nickname: string; member_count: number; collaborator_count: number; join_limit: number }
  }
  /** The groups the caller belongs to. */
  '/api/group/getlist': { req: Record<string, never>; res: GroupSummary[] }
  /** Selects another group the caller belongs to. */
  '/api/group/select': { req: { group_id: number }; res: LoginResult }
  /** Pre-registers a person by phone; an existing user joins at once, a new one on first sign-in. */
  '/api/user/pre/register': { req: { nickname: string; phone: string; department_id: number }; res: { joined: boolean } }
  /** Withdraws a pre-registration. */
  '/api/user/pre/delete': { req: { id: number }; res: null }
  /** Administrators and managers only; one of phone or uid; rate-limited per caller; NOT_FOUND for nobody. */
  '/api/user/get/overview/phoneuid': { req: { phone: string } | { uid: string }; res: PersonOverview }

  '/api/department/getlist': { req: Record<string, never>; res: Department[] }
  /** Creates (no id) or renames/moves (id); a department cannot move under itself or a descendant. */
  '/api/department/save': { req: { id?: number; name: string; parent_id?: number; sort?: number }; res: Department }
  /** Deletes a department with its descendants; their members become department-less. */
  '/api/department/delete': { req: { id: number }; res: null }
  /** Replaces the department's managers. */
  '/api/department/setting/manager': { req: { department_id: number; userids: number[] }; res: Department }
  '/api/department/delete/manager': { req: { department_id: number; user_id: number }; res: Department }
  '/api/department/delete/layer/auth': { req: { department_id: number; layer_ids: number[] }; res: Department }

  '/api/role/getlist': { req: Record<string, never>; res: Role[] }
  '/api/role/save': { req: { id?: number; name: string }; res: Role }
  '/api/role/delete': { req: { id: number }; res: null }
  '/api/role/save/join': { req: { role_id: number; user_ids: number[] }; res: Role }
  '/api/role/save/module': { req: { role_id: number; module_ids: string[] }; res: Role }

  /** The group-level catalogue of one type (1 modules, 2 group actions), with the group's tier applied. */
  '/api/module/getlist': { req: { type: 1 | 2 }; res: ModuleItem[] }
  /** The whole group-level catalogue with the group's tier applied. */
  '/api/module/getlist/group': { req: Record<string, never>; res: ModuleItem[] }
}
