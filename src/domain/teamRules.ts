/** Input rules of the team screens (issue 5), shared by the pages and the server. Each returns an error message or null. */
import { TEAM_UI_MSG } from './messages'
import { charLength } from './validate'

/** Longest department name (SPEC-free; a department shows on one line of a phone). */
export const DEPARTMENT_NAME_MAX = 30
/** Longest role name (SPEC-free). */
export const ROLE_NAME_MAX = 20

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

/** The invite code in what the user pasted: a bare code, or a link carrying `code=`. */
export function inviteCodeFrom(text: string | undefined | null): string {
  const t = (text ?? '').trim()
  const m = /[?&#]code=([^&#\s]+)/.exec(t)
  if (m) {
    try {
      return decodeURIComponent(m[1]).trim()
    } catch {
      return m[1].trim()
    }
  }
  return t
}

/** The link that opens the team invitation in the H5 app (or the mini-program's same path). */
export function inviteLink(origin: string, code: string): string {
  return `${origin.replace(/\/+$/, '')}/group?code=${encodeURIComponent(code)}`
}
