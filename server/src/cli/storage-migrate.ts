/**
 * npm run storage:migrate -- --to s3|pg|local [--from s3|pg|local]
 * Copies every uploaded file from the storage in use (what the server would choose from this
 * environment, or --from) to the target, verifying each by SHA-256 read back; rerun it to resume.
 * It never deletes the source. Exit code 1 when any file failed, 2 on wrong arguments or settings.
 */
import { readServerConfig } from '../config'
import { openDatabase } from '../db/connection'
import { migrateToLatest } from '../db/migrations'
import { migrateStorage } from '../services/storage-migrate'
import { openStorage, STORAGE_KINDS, StorageConfigError, storageKindOf, type StorageKind } from '../services/storage-choice'

const USAGE = 'usage: npm run storage:migrate -- --to s3|pg|local [--from s3|pg|local]'

function argument(args: string[], name: string): string | undefined {
  const at = args.indexOf(name)
  if (at >= 0) return args[at + 1]
  const inline = args.find((a) => a.startsWith(`${name}=`))
  return inline?.slice(name.length + 1)
}

function kindArgument(args: string[], name: string): StorageKind | undefined {
  const value = argument(args, name)
  if (value === undefined) return undefined
  if (!(STORAGE_KINDS as readonly string[]).includes(value)) throw new StorageConfigError(`${name} ${value}: use local, pg or s3\n${USAGE}`)
  return value as StorageKind
}

async function main(args: string[]): Promise<number> {
  const config = readServerConfig(process.env)
  const db = openDatabase(config.database)
  try {
    const to = kindArgument(args, '--to')
    if (!to) throw new StorageConfigError(USAGE)
    const from = kindArgument(args, '--from') ?? storageKindOf(process.env, db)
    if (from === to) throw new StorageConfigError(`--from and --to are both ${to}: nothing to copy`)
    // The stored_files table may not exist yet on a database no server has started on.
    await migrateToLatest(db)
    const source = await openStorage(from, process.env, db, config.dataDir)
    const target = await openStorage(to, process.env, db, config.dataDir)
    console.log(`storage:migrate ${from} -> ${to}`)
    const report = await migrateStorage(source, target, (line) => console.log(line))
    console.log(`done: ${report.total} files, ${report.copied} copied, ${report.skipped} already there, ${report.failed.length} failed; the source was left as it was`)
    for (const f of report.failed) console.error(`failed: ${f.key}: ${f.reason}`)
    if (report.failed.length === 0) console.log(`next: start the servers with FILE_STORAGE=${to}`)
    return report.failed.length === 0 ? 0 : 1
  } finally {
    await db.close()
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err) => {
    console.error(err instanceof StorageConfigError ? err.message : err)
    process.exit(2)
  },
)
