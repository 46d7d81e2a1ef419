/** Uploads a real image through /api/system/upload, for tests that store what the upload answers. */
import type { Auth, TestApp } from './helpers'

/** The smallest bytes the upload takes as a PNG (it reads the type from the magic bytes). */
export const PNG_BYTES = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64, 1)])

/** The URL the upload call gave for one PNG. */
export async function uploadPng(t: TestApp, auth: Auth, type = 'icon'): Promise<string> {
  const boundary = `----teammap${Math.random().toString(16).slice(2)}`
  const fields: Record<string, string> = { type, userid: String(auth.userid), groupid: '', token: auth.token }
  const chunks: Buffer[] = []
  for (const [name, value] of Object.entries(fields)) chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`))
  chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`), PNG_BYTES, Buffer.from('\r\n'))
  chunks.push(Buffer.from(`--${boundary}--\r\n`))
  const res = await t.app.inject({ method: 'POST', url: '/api/system/upload', payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } })
  const body = res.json()
  if (body.header.errcode !== 0) throw new Error(`upload failed: ${body.header.errmsg}`)
  return body.data.url as string
}
