/**
 * Tasks (types/tasks.ts): a group's tasks at a marker or a place, with a due day and a
 * state, and their assignees (members or departments) in task_assignees. The check-in that
 * completed a task is `done_sign_id` (a row of signs). No foreign keys, like map data.
 */
import { sql, type Kysely, type Migration } from 'kysely'
import type { DialectName } from '../connection'
import { withId } from './columns'

export function tasks(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<any>) {
      await withId(db.schema.createTable('tasks'), dialect)
        .addColumn('group_id', 'integer', (c) => c.notNull())
        .addColumn('creator_id', 'integer', (c) => c.notNull())
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('content', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('marker_id', 'integer')
        // A place on the map when there is no marker (all three or none).
        .addColumn('place_name', 'text')
        .addColumn('place_lng', 'double precision')
        .addColumn('place_lat', 'double precision')
        // 'YYYY-MM-DD' (Shanghai) or null.
        .addColumn('due_date', 'text')
        // 'open' | 'doing' | 'done'
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addColumn('done_at', 'text')
        .addColumn('done_by', 'integer')
        .addColumn('done_sign_id', 'integer')
        .execute()
      await db.schema.createIndex('tasks_group_updated_index').on('tasks').columns(['group_id', 'updated_at']).execute()

      // One row per assignee: a member (user_id, department_id 0) or a department (department_id, user_id 0).
      await withId(db.schema.createTable('task_assignees'), dialect)
        .addColumn('task_id', 'integer', (c) => c.notNull())
        .addColumn('group_id', 'integer', (c) => c.notNull())
        .addColumn('user_id', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('department_id', 'integer', (c) => c.notNull().defaultTo(0))
        .execute()
      await db.schema.createIndex('task_assignees_task_index').on('task_assignees').columns(['task_id']).execute()
      await db.schema.createIndex('task_assignees_group_user_index').on('task_assignees').columns(['group_id', 'user_id']).execute()
      await db.schema.createIndex('task_assignees_group_department_index').on('task_assignees').columns(['group_id', 'department_id']).execute()
    },

    async down(db: Kysely<any>) {
      await sql`drop table if exists task_assignees`.execute(db)
      await sql`drop table if exists tasks`.execute(db)
    },
  }
}
