/**
 * join_limit counts collaborators, no longer the administrator too (SPEC 1, 9: the trial has 5
 * collaborators). Trial and paid groups keep their numbers, which now mean collaborators; a group
 * reset to free stored 1 (the administrator alone) and now needs 0. Literal values: a migration
 * must not follow later changes of the constants.
 */
import type { Kysely, Migration } from 'kysely'

export function collaboratorLimit(): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.updateTable('groups').set({ join_limit: 0 }).where('level', '=', 0).where('join_limit', '=', 1).execute()
    },
    async down(db: Kysely<any>) {
      await db.updateTable('groups').set({ join_limit: 1 }).where('level', '=', 0).where('join_limit', '=', 0).execute()
    },
  }
}
