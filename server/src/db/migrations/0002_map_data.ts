/**
 * Map data: layers in folders, per-user layer settings, per-member layer permissions,
 * markers with their derived bounds, and the operation log. Rows are soft-deleted (deleted_at) so
 * that the log can restore them.
 *
 * No foreign keys to groups: deleting an account deletes its group, and the map data goes with it
 * through purgeGroupMapData (services/layers.ts) rather than blocking the delete.
 */
import { sql, type Kysely, type Migration } from 'kysely'
import type { DialectName } from '../connection'
import { withId } from './columns'

export function mapData(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<any>) {
      await withId(db.schema.createTable('layers'), dialect)
        .addColumn('group_id', 'integer', (c) => c.notNull())
        // 0 at the root.
        .addColumn('parent_id', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('type', 'integer', (c) => c.notNull())
        .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('is_default', 'integer', (c) => c.notNull().defaultTo(0))
        // Live markers in the layer, kept by the markers repository in the transaction that changes
        // them: layer lists and page totals read it instead of counting 200,000 index entries.
        .addColumn('marker_count', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_by', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addColumn('deleted_at', 'text')
        .execute()
      await db.schema.createIndex('layers_group_parent_index').on('layers').columns(['group_id', 'parent_id']).execute()

      await db.schema
        .createTable('layer_settings')
        .addColumn('user_id', 'integer', (c) => c.notNull())
        .addColumn('layer_id', 'integer', (c) => c.notNull())
        .addColumn('show', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('layer_settings_pk', ['user_id', 'layer_id'])
        .execute()

      await withId(db.schema.createTable('layer_auth'), dialect)
        .addColumn('group_id', 'integer', (c) => c.notNull())
        .addColumn('layer_id', 'integer', (c) => c.notNull())
        .addColumn('user_id', 'integer', (c) => c.notNull())
        // JSON array of permission ids (LAYER_PERMISSIONS).
        .addColumn('opts', 'text', (c) => c.notNull())
        .addUniqueConstraint('layer_auth_layer_user_unique', ['layer_id', 'user_id'])
        .execute()
      await db.schema.createIndex('layer_auth_group_user_index').on('layer_auth').columns(['group_id', 'user_id']).execute()

      await withId(db.schema.createTable('markers'), dialect)
        .addColumn('group_id', 'integer', (c) => c.notNull())
        .addColumn('layer_id', 'integer', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('type', 'integer', (c) => c.notNull())
        .addColumn('points', 'text', (c) => c.notNull())
        // JSON object (MarkerStyle) and JSON object of custom field values by field id.
        .addColumn('style', 'text', (c) => c.notNull())
        .addColumn('width', 'double precision', (c) => c.notNull())
        .addColumn('radius', 'double precision', (c) => c.notNull().defaultTo(0))
        .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('fields', 'text', (c) => c.notNull())
        // Lower-cased name and field values: what a keyword search matches.
        .addColumn('search_text', 'text', (c) => c.notNull())
        .addColumn('min_lng', 'double precision', (c) => c.notNull())
        .addColumn('min_lat', 'double precision', (c) => c.notNull())
        .addColumn('max_lng', 'double precision', (c) => c.notNull())
        .addColumn('max_lat', 'double precision', (c) => c.notNull())
        .addColumn('creator_id', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addColumn('deleted_at', 'text')
        .execute()
      // Paging by layer and id, counts per layer and the group's total all read only this index.
      await db.schema.createIndex('markers_live_group_layer_id_index').on('markers').columns(['group_id', 'layer_id', 'id']).where(sql.ref('deleted_at'), 'is', null).execute()

      if (dialect === 'sqlite') {
        // SQLite R*Tree of the bounds; the repository keeps it in step with markers (soft-deleted
        // markers stay in it so that a restore needs nothing; queries join back to markers).
        await sql`create virtual table markers_rtree using rtree(id, min_lng, max_lng, min_lat, max_lat)`.execute(db)
      } else {
        // PostgreSQL: a GiST index over the bounds as a built-in box (no extension needed).
        await sql`create index markers_bbox_gist_index on markers using gist (box(point(min_lng, min_lat), point(max_lng, max_lat))) where deleted_at is null`.execute(db)
      }

      await withId(db.schema.createTable('oplog'), dialect)
        .addColumn('group_id', 'integer', (c) => c.notNull())
        .addColumn('at', 'text', (c) => c.notNull())
        .addColumn('user_id', 'integer', (c) => c.notNull())
        .addColumn('entity', 'text', (c) => c.notNull())
        .addColumn('entity_id', 'integer', (c) => c.notNull())
        .addColumn('action', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        // JSON of the presented entity before and after the change (null when there is none).
        .addColumn('before', 'text')
        .addColumn('after', 'text')
        .execute()
      await db.schema.createIndex('oplog_group_id_index').on('oplog').columns(['group_id', 'id']).execute()
      await db.schema.createIndex('oplog_group_entity_index').on('oplog').columns(['group_id', 'entity', 'entity_id']).execute()
    },

    async down(db: Kysely<any>) {
      for (const table of ['oplog', 'markers_rtree', 'markers', 'layer_auth', 'layer_settings', 'layers']) {
        await sql`drop table if exists ${sql.table(table)}`.execute(db)
      }
    },
  }
}
