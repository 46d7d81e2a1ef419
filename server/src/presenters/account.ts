/** Wire shapes of the account (SPEC 3 "User info", "Login response"); pure functions of loaded rows. */
import type { ExpiredInfo, GroupInfo, Level, LoginResult, ModuleRef, UserInfo } from '../../../types/entities'
import { GROUP_CATALOGUE } from '../../../src/domain/teams'
import { isVipExpired } from '../../../src/domain/tiers'
import type { GroupRow } from '../db/schema'
import type { Account } from '../services/account'

/** The catalogue ids as the user info lists them: id and name. */
export function presentModules(ids: readonly string[]): ModuleRef[] {
  return ids.map((id) => ({ id, name: GROUP_CATALOGUE.find((e) => e.id === id)?.name ?? id }))
}

/**
 * modules: the effective module ids of the member (teams.ts effectiveModuleIds, tier applied);
 * department_manager: manages any department of the selected group.
 * level and vip_exp are the selected group's membership (the administrator's VIP that the whole
 * group shares); 0 and null without a group.
 */
export function presentUserInfo({ user, selected, verified }: Account, token: string): UserInfo {
  const group = selected?.group
  return {
    id: user.id,
    token,
    nickname: user.nickname,
    avatar: user.avatar,
    uid: user.uid,
    phone: user.phone,
    level: (group?.level ?? 0) as Level,
    select_groupid: group?.id ?? 0,
    select_groupname: group?.name ?? '',
    is_manager: !!selected && (selected.join.is_manager === 1 || selected.group.owner_id === user.id),
    verifyed: verified,
    department_manager: !!selected && selected.team.authorityDepartmentIds.size > 0,
    source: user.source,
    group_vip: selected
      ? {
          group_vip_exp: selected.group.vip_exp,
          level: selected.group.level as Level,
          nickname: selected.owner.nickname,
          phone: selected.owner.phone,
          marker_limit: selected.group.marker_limit,
          join_limit: selected.group.join_limit,
          file_size_limit: selected.group.file_size_limit,
        }
      : null,
    modules: selected ? presentModules(selected.team.modules) : [],
    vip_exp: group?.vip_exp ?? null,
  }
}

/** is_admin: the caller owns the selected group; admin_vip_expired: that group's (administrator's) VIP has expired. */
export function presentLoginResult(account: Account, token: string, now: Date): LoginResult {
  const group = account.selected?.group
  return {
    is_admin: !!group && group.owner_id === account.user.id,
    admin_vip_expired: !!group && isVipExpired(group.level as Level, group.vip_exp, now),
    user: presentUserInfo(account, token),
  }
}

export function presentExpiredInfo(account: Account, now: Date): ExpiredInfo {
  const result = presentLoginResult(account, '', now)
  return {
    expired: result.admin_vip_expired,
    is_admin: result.is_admin,
    admin_vip_expired: result.admin_vip_expired,
    vip_exp: result.user.vip_exp,
    level: result.user.level,
  }
}

export function presentGroupInfo(group: GroupRow, memberCount: number, callerId: number): GroupInfo {
  return {
    id: group.id,
    name: group.name,
    owner_id: group.owner_id,
    level: group.level as Level,
    vip_exp: group.vip_exp,
    marker_limit: group.marker_limit,
    join_limit: group.join_limit,
    file_size_limit: group.file_size_limit,
    member_count: memberCount,
    is_admin: group.owner_id === callerId,
  }
}
