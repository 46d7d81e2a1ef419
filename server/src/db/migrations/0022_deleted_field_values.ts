/**
 * Values of deleted custom fields, kept apart from the markers: deleting a field moves its values
 * out of markers.fields (so that no answer, share or keyword search can show or match them), and
 * restoring the field from the operation log moves them back. Nothing reads this table otherwise.
 */
import { sql, type Kysely, type Migration } from 'kysely'

export function deletedFieldValues(): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('deleted_field_values')
        .addColumn('group_id', 'integer', (c) => c.notNull())
        .addColumn('field_id', 'integer', (c) => c.notNull())
        .addColumn('marker_id', 'integer', (c) => c.notNull())
        // The value as JSON, as it stood in markers.fields.
        .addColumn('value', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('deleted_field_values_pk', ['field_id', 'marker_id'])
        .execute()
      await db.schema.createIndex('deleted_field_values_group_index').on('deleted_field_values').column('group_id').execute()
    },
    async down(db: Kysely<any>) {
      await sql`drop table if exists deleted_field_values`.execute(db)
    },
  }
}
