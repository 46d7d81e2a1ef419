/**
 * /api/group/*: the caller's own group (a 7-day trial), the selected group's info and name, and the
 * team: members and pending people, removing and quitting, managers, departments of
 * members, the invite code, joining by it, the groups the caller belongs to and switching. Who may
 * do what is services/group.ts's.
 */
import type { FastifyInstance } from 'fastify'
import {
  createGroup,
  groupInfo,
  groupJoins,
  groupsOfCaller,
  inviteCode,
  inviteInfo,
  joinByCode,
  quitGroup,
  removeJoin,
  saveGroupName,
  selectGroup,
  setJoinDepartment,
  setManager,
} from '../services/group'
import { callDefiners, type AppDeps } from './define'
import { noFields } from '../schemas/common'
import { codeFields, createFields, inviteCodeFields, joinDepartmentFields, joinFields, managerFields, nameFields, selectFields } from '../schemas/group'

export function groupRoutes(app: FastifyInstance, deps: AppDeps): void {
  const { publicCall, sessionCall } = callDefiners(app, deps)

  sessionCall('/api/group/create', createFields, async ({ name }, caller) => createGroup(deps, caller, name))

  sessionCall('/api/group/info', noFields, async (_input, caller) => groupInfo(deps, caller))

  sessionCall('/api/group/save/name', nameFields, async ({ name }, caller) => saveGroupName(deps, caller, name))

  sessionCall('/api/group/get/joins', noFields, async (_input, caller) => groupJoins(deps, caller))

  sessionCall('/api/group/remove/join', joinFields, async ({ join_id }, caller) => removeJoin(deps, caller, join_id))

  sessionCall('/api/group/quit', noFields, async (_input, caller) => quitGroup(deps, caller))

  sessionCall('/api/group/join/setting/manager', managerFields, async (input, caller) => setManager(deps, caller, input))

  sessionCall('/api/group/setting/join', joinDepartmentFields, async (input, caller) => setJoinDepartment(deps, caller, input))

  sessionCall('/api/group/invite/code', inviteCodeFields, async ({ reset }, caller) => inviteCode(deps, caller, reset))

  publicCall('/api/group/invite/info', codeFields, async ({ code }, { ip }) => inviteInfo(deps, code, ip))

  sessionCall('/api/group/join', codeFields, async ({ code }, caller) => joinByCode(deps, caller, code))

  sessionCall('/api/group/getlist', noFields, async (_input, caller) => groupsOfCaller(deps, caller))

  sessionCall('/api/group/select', selectFields, async ({ group_id }, caller) => selectGroup(deps, caller, group_id))
}
