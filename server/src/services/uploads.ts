/**
 * Uploads (SPEC 7 /api/system/upload): images for notes, icons and avatars. The type is read from
 * the file's first bytes, never from its name. The group's file_size_limit (KB, SPEC 3
 * file_rep_size) is its storage quota: all its files together; one file may also not exceed
 * UPLOAD_FILE_MAX_KB.
 */
import type { Upload } from '../../../types/mapdata'
import { ErrCode } from '../../../types/api'
import { MAP_IO_MSG, MAP_MSG } from '../../../src/domain/messages'
import { formatStorage } from '../../../src/domain/tiers'
import { isClientId } from '../../../src/domain/clientId'
import { CLIENT_ID_MSG } from '../../../src/domain/clientIdMessages'
import { inTransaction, type Database, type Executor } from '../db/connection'
import { deleteFieldsOfGroups } from '../db/fields'
import { deleteIconsOfGroups } from '../db/icons'
import { deleteNotesOfGroups } from '../db/notes'
import type { GroupRow } from '../db/schema'
import { deleteStylesOfGroups } from '../db/title-styles'
import { deleteUploadsOfGroups, findUploadByClientId, insertUpload, lockGroupUploads, uploadsOfGroups, usedStorageKb, type UploadRow } from '../db/uploads'
import { BusinessError } from '../envelope'
import type { Caller } from '../auth'
import { createOnce } from './client-ids'
import { limitsInForce, storageLimitMessage } from './limits'
import { mapCaller } from './permissions'
import { newStorageKey, urlOfKey, type FileStorage } from './storage'

/** One file at most 10 M: photos from phone cameras fit, and one upload cannot eat a trial's quota. */
export const UPLOAD_FILE_MAX_KB = 10 * 1024

export interface ImageKind {
  mime: string
  extension: 'jpg' | 'png' | 'gif' | 'webp'
}

/** JPEG, PNG, GIF or WebP by magic bytes; null for anything else (SVG included: it can carry script). */
export function sniffImage(data: Buffer): ImageKind | null {
  const starts = (bytes: number[], offset = 0) => data.length >= offset + bytes.length && bytes.every((b, i) => data[offset + i] === b)
  const ascii = (text: string, offset = 0) => starts([...Buffer.from(text, 'latin1')], offset)
  if (starts([0xff, 0xd8, 0xff])) return { mime: 'image/jpeg', extension: 'jpg' }
  if (starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return { mime: 'image/png', extension: 'png' }
  if (ascii('GIF87a') || ascii('GIF89a')) return { mime: 'image/gif', extension: 'gif' }
  if (ascii('RIFF') && ascii('WEBP', 8)) return { mime: 'image/webp', extension: 'webp' }
  return null
}

export const MIME_OF_EXTENSION: Record<ImageKind['extension'], string> = {
  jpg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  webp: 'image/webp',
}

/** Storage is counted in whole KB, rounded up. */
export function sizeInKb(bytes: number): number {
  return Math.max(1, Math.ceil(bytes / 1024))
}

export function tooLarge(): BusinessError {
  return new BusinessError(ErrCode.LIMIT_REACHED, MAP_MSG.uploadTooLarge(formatStorage(UPLOAD_FILE_MAX_KB)))
}

export interface IncomingFile {
  data: Buffer
  /** The name the client gave (shown back, never used for storing). */
  filename: string
  /** What the client says the file is for (note, icon, avatar ...). */
  type: string
  /** Makes the upload idempotent (services/client-ids.ts): the same id again answers the first file. */
  client_id?: string
}

/** Checks and stores one file for the group; the quota check and the record are one transaction. */
export async function storeUpload(db: Database, storage: FileStorage, group: GroupRow, userId: number, file: IncomingFile, now: Date): Promise<Upload> {
  const image = sniffImage(file.data)
  if (!image) throw new BusinessError(ErrCode.VALIDATION, MAP_MSG.uploadType)
  const sizeKb = sizeInKb(file.data.length)
  if (sizeKb > UPLOAD_FILE_MAX_KB) throw tooLarge()
  const key = newStorageKey(group.id, image.extension)
  const url = urlOfKey(key)
  const name = displayName(file.filename, image.extension)
  const clientId = file.client_id
  // The earlier upload answers with the name this call gives: the same file sent again carries the same one.
  const earlier = (row: UploadRow): Upload => ({ url: row.url, size_kb: row.size_kb, name })
  const store = () =>
    inTransaction(db, async (trx) => {
      await lockGroupUploads(trx, db.dialect, group.id)
      // After the lock: a twin that waited for it finds the winner's file instead of storing a second one.
      const before = clientId ? await findUploadByClientId(trx, group.id, userId, clientId) : undefined
      if (before) return earlier(before)
      const limits = limitsInForce(group, now)
      if ((await usedStorageKb(trx, group.id)) + sizeKb > limits.file_size_limit) throw new BusinessError(ErrCode.LIMIT_REACHED, storageLimitMessage(limits))
      await insertUpload(trx, {
        group_id: group.id,
        user_id: userId,
        path: key,
        url,
        size_kb: sizeKb,
        mime: image.mime,
        type: file.type.slice(0, 32),
        created_at: now.toISOString(),
        client_id: clientId ?? null,
      })
      // Inside the transaction: a failed write leaves no record that counts against the quota.
      await storage.put(key, file.data, image.mime)
      return { url, size_kb: sizeKb, name }
    })
  if (!clientId) return store()
  return createOnce(store, async () => {
    const won = await findUploadByClientId(db.kysely, group.id, userId, clientId)
    return won && earlier(won)
  })
}

function displayName(filename: string, extension: string): string {
  const base = filename.split(/[\\/]/).pop()?.trim().slice(0, 100) ?? ''
  return base || `image.${extension}`
}

/**
 * Removes the notes, custom fields, title styles, icons and upload records of these groups for
 * good (account deletion, beside purgeGroupMapData). Returns the storage keys of their files:
 * delete them with deleteStoredFiles once the transaction has committed.
 */
export async function purgeGroupNotesFieldsAndFiles(trx: Executor, groupIds: number[]): Promise<string[]> {
  const keys = (await uploadsOfGroups(trx, groupIds)).map((u) => u.path)
  await deleteNotesOfGroups(trx, groupIds)
  await deleteFieldsOfGroups(trx, groupIds)
  await deleteStylesOfGroups(trx, groupIds)
  await deleteIconsOfGroups(trx, groupIds)
  await deleteUploadsOfGroups(trx, groupIds)
  return keys
}

export async function deleteStoredFiles(storage: FileStorage, keys: string[]): Promise<void> {
  for (const key of keys) await storage.delete(key)
}

/** POST /api/system/upload once its parts are read: the caller's selected group takes the file. */
export async function uploadFile(
  db: Database,
  storage: FileStorage,
  caller: Caller,
  file: Omit<IncomingFile, 'type' | 'client_id'> | null,
  type: string,
  now: Date,
  clientId?: string,
): Promise<Upload> {
  const { group } = await mapCaller(db.kysely, caller)
  if (!file) throw new BusinessError(ErrCode.VALIDATION, MAP_IO_MSG.uploadNoFile)
  // The form field comes as text: an empty one is no id, anything else must follow the rule.
  if (clientId && !isClientId(clientId)) throw new BusinessError(ErrCode.VALIDATION, CLIENT_ID_MSG.invalid)
  return storeUpload(db, storage, group, caller.userId, { ...file, type, client_id: clientId || undefined }, now)
}
