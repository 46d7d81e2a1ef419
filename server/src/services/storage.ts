/**
 * Where uploaded files live. Routes see only FileStorage (put/get/delete by key), so an object
 * store (S3, COS, OSS) can replace the local folder without touching them. Keys are
 * '<group id>/<random name>.<ext>' and nothing else: checked here so no key can leave the root.
 */
import type { FastifyInstance } from 'fastify'
import { randomBytes } from 'node:crypto'
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { mkdir, readdir, readFile, rename, unlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join, resolve, sep } from 'node:path'

export interface FileStorage {
  /** Stores the bytes under the key (replacing any); rejects a key isStorageKey refuses. */
  put(key: string, data: Buffer, mime: string): Promise<void>
  /** The file's bytes, or null when there is none (or the key is not a storage key). */
  get(key: string): Promise<Buffer | null>
  delete(key: string): Promise<void>
  /** Every stored key, in no set order (storage:migrate copies them all). */
  keys(): AsyncIterable<string>
}

/** The only keys that exist: '<group id>/<32 hex>.<image extension>'. */
const KEY = /^[1-9]\d{0,9}\/[0-9a-f]{32}\.(jpg|png|gif|webp)$/

export function isStorageKey(key: string): boolean {
  return KEY.test(key)
}

/** Refuses a key that is not a storage key before it reaches a path, an object name or a row. */
export function checkStorageKey(key: string): void {
  if (!isStorageKey(key)) throw new Error(`invalid storage key: ${JSON.stringify(key)}`)
}

/** The MIME type a key's extension stands for (what the upload chose from the bytes). */
export function mimeOfKey(key: string): string {
  const extension = key.slice(key.lastIndexOf('.') + 1)
  return extension === 'jpg' ? 'image/jpeg' : `image/${extension}`
}

export function newStorageKey(groupId: number, extension: string): string {
  return `${groupId}/${randomBytes(16).toString('hex')}.${extension}`
}

/** The public path a stored file is served at (GET /files/<key>). */
export function urlOfKey(key: string): string {
  return `/files/${key}`
}

/** Files in a local folder (DATA_DIR/uploads by default). */
export class LocalFileStorage implements FileStorage {
  readonly root: string

  constructor(root: string) {
    this.root = resolve(root)
    mkdirSync(this.root, { recursive: true })
  }

  private pathOf(key: string): string {
    checkStorageKey(key)
    const full = resolve(this.root, key)
    if (!full.startsWith(this.root + sep)) throw new Error(`invalid storage key: ${JSON.stringify(key)}`)
    return full
  }

  /** The type is not kept: files are served by their key's extension, which the upload chose from the bytes. */
  async put(key: string, data: Buffer, _mime?: string): Promise<void> {
    const full = this.pathOf(key)
    await mkdir(dirname(full), { recursive: true })
    // Written aside and renamed, so a reader never sees half a file.
    const partial = `${full}.${randomBytes(4).toString('hex')}.part`
    await writeFile(partial, data)
    await rename(partial, full)
  }

  async get(key: string): Promise<Buffer | null> {
    if (!isStorageKey(key)) return null
    try {
      return await readFile(this.pathOf(key))
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null
      throw err
    }
  }

  async delete(key: string): Promise<void> {
    if (!isStorageKey(key)) return
    try {
      await unlink(this.pathOf(key))
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err
    }
  }

  /** '<group>/<name>' of every file; half-written '.part' files are not keys and are left out. */
  async *keys(): AsyncIterable<string> {
    let groups: string[]
    try {
      groups = await readdir(this.root)
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return
      throw err
    }
    for (const group of groups) {
      let names: string[]
      try {
        names = await readdir(join(this.root, group))
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOTDIR') continue
        throw err
      }
      for (const name of names) if (isStorageKey(`${group}/${name}`)) yield `${group}/${name}`
    }
  }
}

/**
 * A storage in a temporary folder, made at the first put and removed by `dispose` (tests and
 * callers that pass none; an app that never stores a file leaves nothing behind).
 */
export function temporaryStorage(): { storage: FileStorage; dispose(): void } {
  let local: LocalFileStorage | null = null
  const open = () => (local ??= new LocalFileStorage(mkdtempSync(join(tmpdir(), 'teammap-uploads-'))))
  return {
    storage: {
      put: (key, data, mime) => open().put(key, data, mime),
      get: async (key) => (local ? local.get(key) : null),
      delete: async (key) => (local ? local.delete(key) : undefined),
      keys: () => (local ? local.keys() : (async function* () {})()),
    },
    dispose: () => {
      if (local) rmSync(local.root, { recursive: true, force: true })
    },
  }
}

const temporaryStorages = new WeakMap<FastifyInstance, FileStorage>()

/**
 * The storage in use: the one given, or one temporary folder per app that goes when the app
 * closes (every route that touches files gets the same one).
 */
export function storageOf(app: FastifyInstance, deps: { storage?: FileStorage }): FileStorage {
  if (deps.storage) return deps.storage
  let storage = temporaryStorages.get(app)
  if (!storage) {
    const temporary = temporaryStorage()
    app.addHook('onClose', async () => temporary.dispose())
    temporaryStorages.set(app, temporary.storage)
    storage = temporary.storage
  }
  return storage
}
