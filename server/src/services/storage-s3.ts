/**
 * Files in an S3-compatible bucket (Tencent COS, Aliyun OSS, MinIO, AWS S3). The server still
 * serves them at /files/<key> (routes/upload.ts) rather than handing out signed bucket URLs: the
 * pages and the mini-program then load pictures from one origin (the CSP's img-src and the
 * mini-program's downloadFile domain list name only the server), the nosniff / image-type /
 * immutable-cache headers stay the server's, and a page cached with a picture's URL never meets
 * an expired signature.
 */
import { DeleteObjectCommand, GetObjectCommand, ListObjectsV2Command, NoSuchKey, PutObjectCommand, S3Client } from '@aws-sdk/client-s3'
import { checkStorageKey, isStorageKey, type FileStorage } from './storage'

export interface S3Settings {
  endpoint: string
  bucket: string
  accessKey: string
  secretKey: string
  region: string
  /** Bucket in the path (MinIO, most self-hosted stores) rather than in the host name (COS, OSS). */
  forcePathStyle: boolean
  /** A folder inside the bucket that all keys go under ('' for the bucket's root). */
  prefix?: string
}

export class S3FileStorage implements FileStorage {
  private readonly client: S3Client
  private readonly prefix: string

  constructor(private readonly settings: S3Settings) {
    this.client = new S3Client({
      endpoint: settings.endpoint,
      region: settings.region,
      forcePathStyle: settings.forcePathStyle,
      credentials: { accessKeyId: settings.accessKey, secretAccessKey: settings.secretKey },
      // The SDK's default CRC checksums (and their chunked trailers) are not understood by every
      // S3-compatible service; a plain signed body is. Integrity is checked by SHA-256 where it
      // matters (storage:migrate reads back, check-in photos are hashed on read).
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    })
    this.prefix = settings.prefix ? `${settings.prefix.replace(/\/+$/, '')}/` : ''
  }

  get bucket(): string {
    return this.settings.bucket
  }

  async put(key: string, data: Buffer, mime: string): Promise<void> {
    checkStorageKey(key)
    await this.client.send(new PutObjectCommand({ Bucket: this.settings.bucket, Key: this.prefix + key, Body: data, ContentType: mime, ContentLength: data.length }))
  }

  async get(key: string): Promise<Buffer | null> {
    if (!isStorageKey(key)) return null
    try {
      const res = await this.client.send(new GetObjectCommand({ Bucket: this.settings.bucket, Key: this.prefix + key }))
      if (!res.Body) return null
      return Buffer.from(await res.Body.transformToByteArray())
    } catch (err) {
      if (err instanceof NoSuchKey || (err as { name?: string }).name === 'NoSuchKey' || (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404) return null
      throw err
    }
  }

  /** Deleting a missing object succeeds in S3, as a missing file's delete does on disk. */
  async delete(key: string): Promise<void> {
    if (!isStorageKey(key)) return
    await this.client.send(new DeleteObjectCommand({ Bucket: this.settings.bucket, Key: this.prefix + key }))
  }

  async *keys(): AsyncIterable<string> {
    let token: string | undefined
    do {
      const res = await this.client.send(new ListObjectsV2Command({ Bucket: this.settings.bucket, Prefix: this.prefix || undefined, ContinuationToken: token }))
      for (const object of res.Contents ?? []) {
        const key = (object.Key ?? '').slice(this.prefix.length)
        if (isStorageKey(key)) yield key
      }
      token = res.IsTruncated ? res.NextContinuationToken : undefined
    } while (token)
  }

  close(): void {
    this.client.destroy()
  }
}
