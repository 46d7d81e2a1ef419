/**
 * Uploaded files kept in the database (FILE_STORAGE=pg, the default on PostgreSQL without object
 * storage), so that every server of a PostgreSQL deployment reads the same files with no extra
 * service. Created on SQLite too (as a blob column) so both schemas stay alike; nothing writes it
 * there unless asked to.
 */
import { sql, type Kysely, type Migration } from 'kysely'
import type { DialectName } from '../connection'

export function storedFiles(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('stored_files')
        .addColumn('key', 'text', (c) => c.primaryKey())
        .addColumn('bytes', dialect === 'postgres' ? 'bytea' : 'blob', (c) => c.notNull())
        .addColumn('sha256', 'text', (c) => c.notNull())
        .addColumn('size', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute()
    },

    async down(db: Kysely<any>) {
      await sql`drop table if exists stored_files`.execute(db)
    },
  }
}
