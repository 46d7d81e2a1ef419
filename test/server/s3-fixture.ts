/**
 * An S3-compatible server for the storage tests: s3rver, in this process, on a free port with a
 * temporary folder. It speaks the S3 REST protocol over HTTP (path-style, ListObjectsV2, NoSuchKey
 * errors), so the SDK calls, the request shapes and the error mapping are real. It refuses an
 * unknown access key (the dummy account is S3RVER) but does not verify SigV4 signatures, and it
 * proves nothing about a production store's signing, consistency, durability, limits or permissions.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import S3rver from 's3rver'
import type { S3Settings } from '../../server/src/services/storage-s3'

export const S3_BUCKET = 'teammap-test'

export interface S3Fixture {
  settings: S3Settings
  /** The settings as the server's environment (S3_*). */
  env: Record<string, string>
  close(): Promise<void>
}

export async function startS3(): Promise<S3Fixture> {
  const directory = mkdtempSync(join(tmpdir(), 'teammap-s3rver-'))
  const server = new S3rver({ address: '127.0.0.1', port: 0, directory, silent: true, configureBuckets: [{ name: S3_BUCKET }] })
  const { port } = await server.run()
  const endpoint = `http://127.0.0.1:${port}`
  return {
    settings: { endpoint, bucket: S3_BUCKET, accessKey: 'S3RVER', secretKey: 'S3RVER', region: 'us-east-1', forcePathStyle: true },
    env: { S3_ENDPOINT: endpoint, S3_BUCKET, S3_ACCESS_KEY: 'S3RVER', S3_SECRET_KEY: 'S3RVER', S3_FORCE_PATH_STYLE: 'true' },
    async close() {
      await server.close()
      rmSync(directory, { recursive: true, force: true })
    },
  }
}
