/**
 * One contract for every place uploaded files can live: the local folder, S3-compatible object
 * storage (s3rver, see s3-fixture.ts) and, when the suite runs on PostgreSQL (scripts/pg-test.sh),
 * the stored_files table. Routes only see FileStorage, so what holds here holds for uploads,
 * icons, check-in photos (hashed from get's bytes) and shares whichever storage is configured.
 */
import { createHash, randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { migrateToLatest } from '../../server/src/db/migrations'
import { LocalFileStorage, newStorageKey, type FileStorage } from '../../server/src/services/storage'
import { PgFileStorage } from '../../server/src/services/storage-pg'
import { S3FileStorage } from '../../server/src/services/storage-s3'
import { makeTestDatabase } from './helpers'
import { startS3 } from './s3-fixture'

jest.setTimeout(60_000)

interface Opened {
  storage: FileStorage
  close(): Promise<void>
}

const kinds: [string, () => Promise<Opened>][] = [
  [
    'local folder',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'teammap-contract-'))
      return { storage: new LocalFileStorage(dir), close: async () => rmSync(dir, { recursive: true, force: true }) }
    },
  ],
  [
    'S3 (s3rver)',
    async () => {
      const s3 = await startS3()
      const storage = new S3FileStorage(s3.settings)
      return {
        storage,
        close: async () => {
          storage.close()
          await s3.close()
        },
      }
    },
  ],
]
if (process.env.DATABASE_URL) {
  kinds.push([
    'PostgreSQL stored_files',
    async () => {
      const { db, drop } = await makeTestDatabase()
      await migrateToLatest(db)
      return { storage: new PgFileStorage(db), close: drop }
    },
  ])
}

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex')
const png = (size: number) => Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), randomBytes(size)])

async function allKeys(storage: FileStorage): Promise<string[]> {
  const keys: string[] = []
  for await (const key of storage.keys()) keys.push(key)
  return keys.sort()
}

describe.each(kinds)('file storage: %s', (_name, open) => {
  let opened: Opened
  let storage: FileStorage

  beforeEach(async () => {
    opened = await open()
    storage = opened.storage
  })

  afterEach(async () => {
    await opened.close()
  })

  it('should give back the bytes put under a key, list the key, and forget it once deleted', async () => {
    const key = newStorageKey(7, 'png')
    const data = png(300)
    await storage.put(key, data, 'image/png')
    expect(await storage.get(key)).toEqual(data)
    expect(await allKeys(storage)).toEqual([key])

    await storage.delete(key)
    expect(await storage.get(key)).toBeNull()
    expect(await allKeys(storage)).toEqual([])
  })

  it('should answer null for a key never stored, and delete it without complaint', async () => {
    const key = newStorageKey(7, 'jpg')
    expect(await storage.get(key)).toBeNull()
    await expect(storage.delete(key)).resolves.toBeUndefined()
  })

  it('should replace the bytes when the same key is put again', async () => {
    const key = newStorageKey(3, 'webp')
    await storage.put(key, png(10), 'image/webp')
    const second = png(20)
    await storage.put(key, second, 'image/webp')
    expect(await storage.get(key)).toEqual(second)
  })

  it('should refuse to store under a key that tries to leave the root or is not a storage key, and find nothing there', async () => {
    const name = `${randomBytes(16).toString('hex')}.png`
    const bad = ['../x', `../${name}`, `1/../../${name}`, `/etc/${name}`, `/1/${name}`, `1/${name}\0.png`, `1\0/${name}`, `1/${name.slice(0, -4)}.exe`, `0/${name}`, `1/sub/${name}`, '']
    for (const key of bad) {
      await expect(storage.put(key, png(10), 'image/png')).rejects.toThrow('invalid storage key')
      expect(await storage.get(key)).toBeNull()
      await expect(storage.delete(key)).resolves.toBeUndefined()
    }
    expect(await allKeys(storage)).toEqual([])
  })

  it('should keep a 10 MB file byte for byte', async () => {
    const key = newStorageKey(12, 'jpg')
    const data = randomBytes(10 * 1024 * 1024)
    await storage.put(key, data, 'image/jpeg')
    const back = await storage.get(key)
    expect(back?.length).toBe(data.length)
    expect(sha256(back!)).toBe(sha256(data))
  })

  it('should keep every file of concurrent puts', async () => {
    const files = Array.from({ length: 24 }, (_, i) => ({ key: newStorageKey(1 + (i % 3), 'png'), data: png(1000 + i) }))
    await Promise.all(files.map((f) => storage.put(f.key, f.data, 'image/png')))
    for (const f of files) expect(await storage.get(f.key)).toEqual(f.data)
    expect(await allKeys(storage)).toEqual(files.map((f) => f.key).sort())
  })
})

// One whole version of a key put several times at once is the store's own promise: the local
// folder and PostgreSQL keep it through our code; S3 keeps it itself, but s3rver (a test server)
// writes one object's file from several requests at once and may mix them, so it is not asked.
describe.each(kinds.filter(([name]) => name !== 'S3 (s3rver)'))('file storage: %s', (_name, open) => {
  it('should keep one whole version of a key put three times at once', async () => {
    const { storage, close } = await open()
    try {
      const key = newStorageKey(9, 'png')
      const versions = [png(200_000), png(200_000), png(200_000)]
      await Promise.all(versions.map((v) => storage.put(key, v, 'image/png')))
      const kept = sha256((await storage.get(key))!)
      expect(versions.map(sha256)).toContain(kept)
    } finally {
      await close()
    }
  })
})

// s3rver checks the access key of a SigV4 request but not the signature itself (s3-fixture.ts).
describe('S3 storage with credentials the server does not know', () => {
  it('should be refused, and store nothing', async () => {
    const s3 = await startS3()
    const wrong = new S3FileStorage({ ...s3.settings, accessKey: 'NOT-A-KEY' })
    const right = new S3FileStorage(s3.settings)
    try {
      const key = newStorageKey(1, 'png')
      await expect(wrong.put(key, png(10), 'image/png')).rejects.toThrow(/Access Key Id/)
      expect(await right.get(key)).toBeNull()
    } finally {
      wrong.close()
      right.close()
      await s3.close()
    }
  })
})
