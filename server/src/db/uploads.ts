/** Repository of the uploads table: every stored file and its size, which the storage quota counts. */
import { sql, type Generated, type Selectable } from 'kysely'
import type { DialectName, Executor } from './connection'

export interface UploadsTable {
  id: Generated<number>
  group_id: number
  user_id: number
  /** Storage key '<group>/<name>'. */
  path: string
  url: string
  size_kb: number
  mime: string
  type: string
  created_at: string
  /** The id the uploading phone gave it (src/domain/clientId.ts): unique per group and uploader. */
  client_id: string | null
}

declare module './schema' {
  interface Tables {
    uploads: UploadsTable
  }
}

export type UploadRow = Selectable<UploadsTable>

export function insertUpload(db: Executor, upload: Omit<UploadRow, 'id' | 'client_id'> & { client_id?: string | null }): Promise<UploadRow> {
  return db.insertInto('uploads').values(upload).returningAll().executeTakeFirstOrThrow()
}

/** The upload this member of the group sent with this client id. */
export function findUploadByClientId(db: Executor, groupId: number, userId: number, clientId: string): Promise<UploadRow | undefined> {
  return db.selectFrom('uploads').selectAll().where('group_id', '=', groupId).where('user_id', '=', userId).where('client_id', '=', clientId).executeTakeFirst()
}

/** KB the group's files take in all. */
export async function usedStorageKb(db: Executor, groupId: number): Promise<number> {
  const row = await db
    .selectFrom('uploads')
    .select((eb) => eb.fn.sum<number | string | null>('size_kb').as('kb'))
    .where('group_id', '=', groupId)
    .executeTakeFirst()
  return Number(row?.kb ?? 0)
}

export function findUploadByPath(db: Executor, path: string): Promise<UploadRow | undefined> {
  return db.selectFrom('uploads').selectAll().where('path', '=', path).executeTakeFirst()
}

export function uploadsOfGroups(db: Executor, groupIds: number[]): Promise<UploadRow[]> {
  if (groupIds.length === 0) return Promise.resolve([])
  return db.selectFrom('uploads').selectAll().where('group_id', 'in', groupIds).execute()
}

export async function deleteUploadsOfGroups(db: Executor, groupIds: number[]): Promise<void> {
  if (groupIds.length === 0) return
  await db.deleteFrom('uploads').where('group_id', 'in', groupIds).execute()
}

/**
 * Serialises uploads of one group until the transaction ends, so that two files cannot both fit
 * the last free space. SQLite already runs one write transaction at a time.
 */
export async function lockGroupUploads(trx: Executor, dialect: DialectName, groupId: number): Promise<void> {
  if (dialect === 'postgres') await sql`select pg_advisory_xact_lock(hashtext(${'uploads:' + groupId}))`.execute(trx)
}
