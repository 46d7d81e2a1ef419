/**
 * Notes on markers, custom fields of layers, title styles, custom icons and uploaded files.
 * Notes and fields are soft-deleted so that the operation log can restore them.
 * Like 0002, no foreign keys to groups: a deleted group's rows go with its map data.
 */
import { sql, type Kysely, type Migration } from 'kysely'
import type { DialectName } from '../connection'
import { withId } from './columns'

export function notesFields(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<any>) {
      await withId(db.schema.createTable('notes'), dialect)
        .addColumn('group_id', 'integer', (c) => c.notNull())
        .addColumn('marker_id', 'integer', (c) => c.notNull())
        .addColumn('content', 'text', (c) => c.notNull().defaultTo(''))
        // JSON array of upload URLs.
        .addColumn('photos', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('user_id', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addColumn('deleted_at', 'text')
        .execute()
      await db.schema.createIndex('notes_marker_index').on('notes').columns(['marker_id', 'id']).execute()
      await db.schema.createIndex('notes_group_index').on('notes').columns(['group_id']).execute()

      await withId(db.schema.createTable('layer_fields'), dialect)
        .addColumn('group_id', 'integer', (c) => c.notNull())
        .addColumn('layer_id', 'integer', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        // JSON array of the choices of a 'choice' field.
        .addColumn('options', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('required', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('deleted_at', 'text')
        .execute()
      await db.schema.createIndex('layer_fields_layer_index').on('layer_fields').columns(['layer_id', 'sort']).execute()
      // A name is unique among the layer's live fields; deleted ones may share it (and block their own restore).
      await db.schema.createIndex('layer_fields_live_name_unique').on('layer_fields').columns(['layer_id', 'name']).unique().where(sql.ref('deleted_at'), 'is', null).execute()

      await withId(db.schema.createTable('title_styles'), dialect)
        .addColumn('group_id', 'integer', (c) => c.notNull())
        // NULL is the group's default style.
        .addColumn('layer_id', 'integer')
        .addColumn('font_size', 'integer', (c) => c.notNull())
        .addColumn('color', 'text', (c) => c.notNull())
        .addColumn('bg_color', 'text', (c) => c.notNull())
        .addColumn('padding', 'integer', (c) => c.notNull())
        .addColumn('border_weight', 'integer', (c) => c.notNull())
        .addColumn('border_color', 'text', (c) => c.notNull())
        .execute()
      // One style per layer, and one default per group (NULLs are distinct in unique indexes, hence the second index).
      await db.schema.createIndex('title_styles_layer_unique').on('title_styles').columns(['group_id', 'layer_id']).unique().execute()
      await db.schema.createIndex('title_styles_default_unique').on('title_styles').column('group_id').unique().where(sql.ref('layer_id'), 'is', null).execute()

      await withId(db.schema.createTable('icons'), dialect)
        .addColumn('group_id', 'integer', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('url', 'text', (c) => c.notNull())
        .addColumn('created_by', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute()
      await db.schema.createIndex('icons_group_index').on('icons').column('group_id').execute()

      await withId(db.schema.createTable('uploads'), dialect)
        .addColumn('group_id', 'integer', (c) => c.notNull())
        .addColumn('user_id', 'integer', (c) => c.notNull())
        // Storage key '<group>/<name>'.
        .addColumn('path', 'text', (c) => c.notNull().unique())
        .addColumn('url', 'text', (c) => c.notNull())
        .addColumn('size_kb', 'integer', (c) => c.notNull())
        .addColumn('mime', 'text', (c) => c.notNull())
        // What the client said the file is for (note, icon, avatar ...).
        .addColumn('type', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute()
      await db.schema.createIndex('uploads_group_index').on('uploads').column('group_id').execute()
    },

    async down(db: Kysely<any>) {
      for (const table of ['uploads', 'icons', 'title_styles', 'layer_fields', 'notes']) {
        await sql`drop table if exists ${sql.table(table)}`.execute(db)
      }
    },
  }
}
