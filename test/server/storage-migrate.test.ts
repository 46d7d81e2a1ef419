/**
 * npm run storage:migrate: every file copied and read back with the same SHA-256, a rerun skips
 * what is already there and repairs what differs, a copy that reads back wrong is reported, and
 * the source is left whole.
 */
import { spawn } from 'node:child_process'
import { createHash, randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { LocalFileStorage, newStorageKey, type FileStorage } from '../../server/src/services/storage'
import { PgFileStorage } from '../../server/src/services/storage-pg'
import { S3FileStorage } from '../../server/src/services/storage-s3'
import { migrateToLatest } from '../../server/src/db/migrations'
import { makeTestDatabase } from './helpers'
import { migrateStorage } from '../../server/src/services/storage-migrate'
import { startS3, type S3Fixture } from './s3-fixture'

jest.setTimeout(120_000)

const ROOT = resolve(__dirname, '../..')
const TSX = join(ROOT, 'node_modules/tsx/dist/cli.mjs')

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex')

let dir: string
let s3: S3Fixture
let local: LocalFileStorage
let bucket: S3FileStorage
let files: { key: string; data: Buffer }[]

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'teammap-migrate-'))
  s3 = await startS3()
  local = new LocalFileStorage(join(dir, 'uploads'))
  bucket = new S3FileStorage(s3.settings)
  files = [1, 1, 2, 5].map((group, i) => ({ key: newStorageKey(group, i % 2 ? 'jpg' : 'png'), data: randomBytes(2000 + i) }))
  for (const f of files) await local.put(f.key, f.data, 'image/png')
})

afterEach(async () => {
  bucket.close()
  await s3.close()
  rmSync(dir, { recursive: true, force: true })
})

async function contents(storage: FileStorage): Promise<Record<string, string>> {
  const out: Record<string, string> = {}
  for await (const key of storage.keys()) out[key] = sha256((await storage.get(key))!)
  return out
}

const expected = () => Object.fromEntries(files.map((f) => [f.key, sha256(f.data)]))

it('should copy every file with its bytes, report progress N/M, and leave the source whole', async () => {
  const lines: string[] = []
  const report = await migrateStorage(local, bucket, (line) => lines.push(line))
  expect(report).toEqual({ total: 4, copied: 4, skipped: 0, failed: [] })
  expect(await contents(bucket)).toEqual(expected())
  expect(await contents(local)).toEqual(expected())
  expect(lines.map((l) => l.split(' ')[0])).toEqual(['1/4', '2/4', '3/4', '4/4'])
})

it('should resume: a rerun skips the files already there with the same bytes and copies the rest again', async () => {
  const [first, second] = [...files].sort((a, b) => a.key.localeCompare(b.key))
  await bucket.put(first.key, first.data, 'image/png')
  // A copy cut short by a crash or a changed object: same key, other bytes.
  await bucket.put(second.key, second.data.subarray(0, 10), 'image/png')

  expect(await migrateStorage(local, bucket)).toEqual({ total: 4, copied: 3, skipped: 1, failed: [] })
  expect(await contents(bucket)).toEqual(expected())
  expect(await migrateStorage(local, bucket)).toEqual({ total: 4, copied: 0, skipped: 4, failed: [] })
})

it('should report a file that reads back from the target with other bytes, and go on with the others', async () => {
  const bad = [...files].sort((a, b) => a.key.localeCompare(b.key))[2].key
  const lossy: FileStorage = {
    put: (key, data, mime) => bucket.put(key, key === bad ? data.subarray(1) : data, mime),
    get: (key) => bucket.get(key),
    delete: (key) => bucket.delete(key),
    keys: () => bucket.keys(),
  }
  const report = await migrateStorage(local, lossy)
  expect(report).toEqual({ total: 4, copied: 3, skipped: 0, failed: [{ key: bad, reason: 'read back with other bytes' }] })
  expect(await contents(local)).toEqual(expected())
})

if (process.env.DATABASE_URL) {
  it('should copy into PostgreSQL and back out of it, each way verified', async () => {
    const { db, drop } = await makeTestDatabase()
    try {
      await migrateToLatest(db)
      const table = new PgFileStorage(db)
      expect(await migrateStorage(local, table)).toEqual({ total: 4, copied: 4, skipped: 0, failed: [] })
      expect(await contents(table)).toEqual(expected())
      expect(await migrateStorage(table, bucket)).toEqual({ total: 4, copied: 4, skipped: 0, failed: [] })
      expect(await contents(bucket)).toEqual(expected())
      expect(await migrateStorage(local, table)).toEqual({ total: 4, copied: 0, skipped: 4, failed: [] })
    } finally {
      await drop()
    }
  })
}

function runMigrate(args: string[]): Promise<{ code: number | null; out: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [TSX, 'server/src/cli/storage-migrate.ts', ...args], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: '', FILE_STORAGE: '', DATA_DIR: dir, NODE_OPTIONS: '', ...s3.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let out = ''
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d))
    child.stderr.setEncoding('utf8').on('data', (d: string) => (out += d))
    child.on('exit', (code) => done({ code, out }))
  })
}

it('should run as npm run storage:migrate -- --to s3, from the local folder a SQLite server uses', async () => {
  // Without FILE_STORAGE the S3_* settings choose s3 as the storage in use: the command says there is nothing to copy.
  const same = await runMigrate(['--to', 's3'])
  expect(same.out).toContain('--from and --to are both s3')
  expect(same.code).toBe(2)

  const moved = await runMigrate(['--from', 'local', '--to', 's3'])
  expect(moved.out).toContain('storage:migrate local -> s3')
  expect(moved.out).toContain('4/4')
  expect(moved.out).toContain('done: 4 files, 4 copied, 0 already there, 0 failed')
  expect(moved.code).toBe(0)
  expect(await contents(bucket)).toEqual(expected())
})
