/**
 * What join_limit counts (SPEC 1, 9: the trial has 5 collaborators, VIP 3 50): the collaborators,
 * not the administrator. A module of its own because the join check on the server, the member list
 * and the membership centre's usage bar all count the same way.
 */

/**
 * Every member but the administrator, plus the people pre-registered by phone who have not signed
 * in yet (their place is already taken). `members` includes the administrator, who is always a
 * member of their own group.
 */
export function collaboratorCount(members: number, pending: number): number {
  return Math.max(0, members - 1) + pending
}

/** Whether `adding` more collaborators fit under join_limit (a limit of 0: the administrator alone). */
export function hasRoomForCollaborator(collaborators: number, joinLimit: number, adding = 1): boolean {
  return collaborators + adding <= joinLimit
}
