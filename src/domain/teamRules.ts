/** Input rules of the team screens, shared by the pages and the server. Each returns an error message or null. */
import { TEAM_UI_MSG } from './messages'
import { DEPARTMENT_NAME_MAX, ROLE_NAME_MAX, parseInviteCode } from './teams'
import { charLength } from './validate'

export { DEPARTMENT_NAME_MAX, ROLE_NAME_MAX }

export function checkDepartmentName(name: string | undefined | null): string | null {
  const n = (name ?? '').trim()
  if (!n) return TEAM_UI_MSG.departmentNameRequired
  if (charLength(n) > DEPARTMENT_NAME_MAX) return TEAM_UI_MSG.departmentNameTooLong(DEPARTMENT_NAME_MAX)
  return null
}

export function checkRoleName(name: string | undefined | null): string | null {
  const n = (name ?? '').trim()
  if (!n) return TEAM_UI_MSG.roleNameRequired
  if (charLength(n) > ROLE_NAME_MAX) return TEAM_UI_MSG.roleNameTooLong(ROLE_NAME_MAX)
  return null
}

/** The invite code in what the user pasted: a bare code, or a link carrying `code=` (the server parses it the same way). */
export function inviteCodeFrom(text: string | undefined | null): string {
  return parseInviteCode(text ?? '')
}

/** The link that opens the team invitation in the H5 app (or the mini-program's same path). */
export function inviteLink(origin: string, code: string): string {
  return `${origin.replace(/\/+$/, '')}/group?code=${encodeURIComponent(code)}`
}

export type MemberAction = 'department' | 'manager' | 'unmanager' | 'remove'

/**
 * What a team manager may do to a member, as the server decides it: anyone managing the team moves
 * members between departments; only the administrator sets or unsets managers and removes a manager;
 * nobody removes the administrator or themselves (they quit instead).
 */
export function memberActions(viewer: { userId: number; isAdmin: boolean }, member: { user: { id: number }; is_admin: boolean; is_manager: boolean }): MemberAction[] {
  const list: MemberAction[] = ['department']
  if (viewer.isAdmin && !member.is_admin) list.push(member.is_manager ? 'unmanager' : 'manager')
  if (!member.is_admin && member.user.id !== viewer.userId && (viewer.isAdmin || !member.is_manager)) list.push('remove')
  return list
}
