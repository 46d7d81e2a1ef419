/**
 * The app with its files in object storage (s3rver, see s3-fixture.ts): an upload lands in the
 * bucket and is served by the server with the same headers as from disk, and a check-in photo
 * is hashed from the bucket's bytes, so one changed there reads as tampered.
 */
import type { SignRecord } from '../../types/signs'
import { S3FileStorage } from '../../server/src/services/storage-s3'
import { makeTestApp, type Auth } from './helpers'
import { startS3, type S3Fixture } from './s3-fixture'
import { makeWorld, ok, type TeamWorld } from './teams-fixture'

jest.setTimeout(60_000)

const NEAR = { lng: 116.397428, lat: 39.91123 }
const JPEG = (fill: number) => Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(1500, fill)])

let s3: S3Fixture
let bucket: S3FileStorage
let w: TeamWorld

beforeEach(async () => {
  s3 = await startS3()
  bucket = new S3FileStorage(s3.settings)
  w = await makeWorld({ t: await makeTestApp({ storage: bucket }) })
})

afterEach(async () => {
  await w.close()
  bucket.close()
  await s3.close()
})

async function photo(auth: Auth, data: Buffer): Promise<string> {
  const boundary = `----s3${Math.random().toString(16).slice(2)}`
  const fields = { type: 'sign', userid: String(auth.userid), groupid: '', token: auth.token }
  const chunks: Buffer[] = []
  for (const [name, value] of Object.entries(fields)) chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`))
  chunks.push(
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="photo.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`),
    data,
    Buffer.from('\r\n'),
    Buffer.from(`--${boundary}--\r\n`),
  )
  const res = await w.t.app.inject({ method: 'POST', url: '/api/system/upload', payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } })
  const body = res.json()
  if (body.header.errcode !== 0) throw new Error(`upload failed: ${body.header.errmsg}`)
  return body.data.url as string
}

const keyOf = (url: string) => url.slice('/files/'.length)

it('should store an upload in the bucket and serve it from the server with nosniff, its image type and immutable caching', async () => {
  const url = await photo(w.owner, JPEG(1))
  expect(await bucket.get(keyOf(url))).toEqual(JPEG(1))
  const res = await w.t.app.inject({ method: 'GET', url })
  expect(res.statusCode).toBe(200)
  expect(res.rawPayload).toEqual(JPEG(1))
  expect(res.headers).toMatchObject({ 'content-type': 'image/jpeg', 'x-content-type-options': 'nosniff', 'cache-control': 'public, max-age=31536000, immutable' })

  await bucket.delete(keyOf(url))
  expect((await w.t.app.inject({ method: 'GET', url })).statusCode).toBe(404)
})

it("should verify a check-in photo from the bucket's bytes: intact it verifies, changed there it reads 'photo'", async () => {
  const url = await photo(w.owner, JPEG(1))
  const ticket = ok(await w.call('/api/sign/ticket', NEAR, w.owner))
  const record = ok(await w.call<SignRecord>('/api/sign/save', { ticket: ticket.ticket, addr: '北京市东城区', photos: [url] }, w.owner)) as SignRecord
  expect(ok(await w.call('/api/sign/getbyid', { id: record.id }, w.owner))).toMatchObject({ verified: true, verify_failure: null })

  await bucket.put(keyOf(url), JPEG(9), 'image/jpeg')
  expect(ok(await w.call('/api/sign/getbyid', { id: record.id }, w.owner))).toMatchObject({ verified: false, verify_failure: 'photo' })
})
