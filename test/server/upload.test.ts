/** POST /api/system/upload (SPEC 7) and GET /files/*: image checks, size and quota, and path safety. */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ErrCode } from '../../types/api'
import { MAP_IO_MSG, MAP_MSG } from '../../src/domain/messages'
import { LocalFileStorage, storageOf } from '../../server/src/services/storage'
import { inTransaction } from '../../server/src/db/connection'
import { deleteStoredFiles, purgeGroupNotesFieldsAndFiles, sniffImage, UPLOAD_FILE_MAX_KB } from '../../server/src/services/uploads'
import type { Auth } from './helpers'
import { makeTeam, rowCount, type Team } from './mapdata-fixture'

let team: Team
beforeEach(async () => {
  team = await makeTeam()
})
afterEach(() => team.t.close())

const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(2000, 7)])
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(100, 1)])
const GIF = Buffer.from('GIF89a......', 'latin1')
const WEBP = Buffer.concat([Buffer.from('RIFF', 'latin1'), Buffer.from([0, 0, 0, 0]), Buffer.from('WEBPVP8 ', 'latin1'), Buffer.alloc(50)])
const SVG = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>')

interface FilePart {
  filename: string
  data: Buffer
  contentType?: string
}

function multipartBody(fields: Record<string, string>, file?: FilePart) {
  const boundary = `----teammap${Math.random().toString(16).slice(2)}`
  const chunks: Buffer[] = []
  for (const [name, value] of Object.entries(fields)) {
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`))
  }
  if (file) {
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.filename}"\r\nContent-Type: ${file.contentType ?? 'image/jpeg'}\r\n\r\n`))
    chunks.push(file.data, Buffer.from('\r\n'))
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`))
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } }
}

async function upload(auth: Auth | null, file?: FilePart, extra: Record<string, string> = {}) {
  const fields = auth ? { type: 'note', userid: String(auth.userid), groupid: '', token: auth.token, ...extra } : { type: 'note', ...extra }
  const res = await team.t.app.inject({ method: 'POST', url: '/api/system/upload', ...multipartBody(fields, file) })
  const body = res.json()
  return { status: res.statusCode, errcode: body.header.errcode as number, errmsg: body.header.errmsg as string, data: body.data }
}

const get = (url: string) => team.t.app.inject({ method: 'GET', url })

describe('/api/system/upload', () => {
  it.each([
    ['JPEG', JPEG, 'image/jpeg', 'jpg'],
    ['PNG', PNG, 'image/png', 'png'],
    ['GIF', GIF, 'image/gif', 'gif'],
    ['WebP', WEBP, 'image/webp', 'webp'],
  ])('should store a %s image and serve it back at the answered url', async (_name, data, mime, extension) => {
    const res = await upload(team.owner, { filename: `照片.${extension}`, data })
    expect(res).toMatchObject({ status: 200, errcode: 0 })
    expect(res.data).toEqual({ url: expect.stringMatching(new RegExp(`^/files/${team.groupId}/[0-9a-f]{32}\\.${extension}$`)), size_kb: Math.ceil(data.length / 1024), name: `照片.${extension}` })
    const served = await get(res.data.url)
    expect(served.statusCode).toBe(200)
    expect(served.headers['content-type']).toBe(mime)
    expect(served.headers['x-content-type-options']).toBe('nosniff')
    expect(served.rawPayload.equals(data)).toBe(true)
    expect(await rowCount(team.t, 'uploads')).toBe(1)
  })

  it('should judge the type by the bytes, not by the name or the declared type', async () => {
    const text = await upload(team.owner, { filename: 'photo.jpg', data: Buffer.from('just some text'), contentType: 'image/jpeg' })
    expect(text).toMatchObject({ errcode: ErrCode.VALIDATION, errmsg: MAP_MSG.uploadType })
    expect(await upload(team.owner, { filename: 'icon.svg', data: SVG, contentType: 'image/svg+xml' })).toMatchObject({ errmsg: MAP_MSG.uploadType })
    const png = await upload(team.owner, { filename: 'named.txt', data: PNG, contentType: 'text/plain' })
    expect(png.data.url).toMatch(/\.png$/)
  })

  it('should refuse a file larger than the per-file limit and store nothing', async () => {
    const big = Buffer.concat([JPEG, Buffer.alloc(UPLOAD_FILE_MAX_KB * 1024)])
    expect(await upload(team.owner, { filename: 'big.jpg', data: big })).toMatchObject({ status: 200, errcode: ErrCode.LIMIT_REACHED, errmsg: MAP_MSG.uploadTooLarge('10M') })
    expect(await rowCount(team.t, 'uploads')).toBe(0)
  })

  it("should count every file against the group's file_size_limit (KB) and refuse what does not fit", async () => {
    await team.t.db.kysely.updateTable('groups').set({ file_size_limit: 5 }).where('id', '=', team.groupId).execute()
    const threeKb = Buffer.concat([JPEG, Buffer.alloc(3 * 1024 - JPEG.length)])
    expect(await upload(team.owner, { filename: 'a.jpg', data: threeKb })).toMatchObject({ errcode: 0, data: { size_kb: 3 } })
    expect(await upload(team.member, { filename: 'b.jpg', data: threeKb })).toMatchObject({ errcode: ErrCode.LIMIT_REACHED, errmsg: MAP_MSG.storageFull })
    expect(await upload(team.member, { filename: 'c.jpg', data: JPEG })).toMatchObject({ errcode: 0, data: { size_kb: 2 } })
    expect(await rowCount(team.t, 'uploads')).toBe(2)
  })

  it("should store into the uploader's own group and count against its quota only", async () => {
    await team.t.db.kysely.updateTable('groups').set({ file_size_limit: 2 }).where('id', '=', team.groupId).execute()
    expect((await upload(team.owner, { filename: 'a.jpg', data: JPEG })).errcode).toBe(0)
    const other = await upload(team.outsider, { filename: 'b.jpg', data: JPEG }, { groupid: String(team.groupId) })
    expect(other.errcode).toBe(0)
    expect(other.data.url).toMatch(new RegExp(`^/files/${team.outsiderGroupId}/`))
  })

  it('should authenticate with the userid and token fields exactly like every other call', async () => {
    expect((await upload(null, { filename: 'a.jpg', data: JPEG })).status).toBe(401)
    expect((await upload({ userid: team.owner.userid, token: 'wrong' }, { filename: 'a.jpg', data: JPEG })).status).toBe(401)
    expect((await upload({ userid: team.member.userid, token: team.owner.token }, { filename: 'a.jpg', data: JPEG })).status).toBe(401)
    const viaHeader = await upload(null, { filename: 'a.jpg', data: JPEG }, { header: JSON.stringify({ userid: team.owner.userid, token: team.owner.token }) })
    expect(viaHeader.errcode).toBe(0)
    expect(await rowCount(team.t, 'uploads')).toBe(1)
  })

  it('should ask for a file when none is sent, and answer 401 first to a caller without a session', async () => {
    expect(await upload(team.owner)).toMatchObject({ errcode: ErrCode.VALIDATION, errmsg: MAP_IO_MSG.uploadNoFile })
    const json = await team.t.call('/api/system/upload', {}, team.owner)
    expect(json).toMatchObject({ errcode: ErrCode.VALIDATION, errmsg: MAP_IO_MSG.uploadNoFile })
    expect((await team.t.call('/api/system/upload', {})).status).toBe(401)
  })
})

describe('purging a deleted group', () => {
  it("should remove the group's upload records and files and leave other groups' alone", async () => {
    const mine = await upload(team.owner, { filename: 'a.jpg', data: JPEG })
    const theirs = await upload(team.outsider, { filename: 'b.jpg', data: PNG })
    const keys = await inTransaction(team.t.db, (trx) => purgeGroupNotesFieldsAndFiles(trx, [team.groupId]))
    await deleteStoredFiles(storageOf(team.t.app, {}), keys)
    expect(keys).toEqual([mine.data.url.slice('/files/'.length)])
    expect((await get(mine.data.url)).statusCode).toBe(404)
    expect((await get(theirs.data.url)).statusCode).toBe(200)
    expect(await rowCount(team.t, 'uploads')).toBe(1)
  })
})

describe('GET /files/*', () => {
  it('should serve only stored files: no listing, no traversal, no guessed names', async () => {
    const { data } = await upload(team.owner, { filename: 'a.jpg', data: JPEG })
    const key = data.url.slice('/files/'.length)
    for (const url of [
      '/files/',
      `/files/${team.groupId}`,
      `/files/${team.groupId}/`,
      '/files/../../etc/passwd',
      '/files/..%2F..%2Fetc%2Fpasswd',
      `/files/${team.groupId}/..%2F..%2F${key}`,
      `/files/${key.replace(/^\d+/, '999')}`,
      `/files/${key.replace(/[0-9a-f]{4}\./, '0000.')}`,
      `/files/${key}.part`,
    ]) {
      const res = await get(url)
      expect([url, res.statusCode]).toEqual([url, 404])
      expect(res.json().header.errcode).toBe(ErrCode.NOT_FOUND)
    }
    expect((await get(data.url)).statusCode).toBe(200)
  })
})

describe('LocalFileStorage', () => {
  let root: string
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 's2-storage-'))
  })
  afterEach(() => rmSync(root, { recursive: true, force: true }))

  it('should put, get and delete files under its root by key', async () => {
    const storage = new LocalFileStorage(root)
    const key = '7/0123456789abcdef0123456789abcdef.png'
    await storage.put(key, PNG, 'image/png')
    expect((await storage.get(key))?.equals(PNG)).toBe(true)
    expect(readdirSync(join(root, '7'))).toEqual(['0123456789abcdef0123456789abcdef.png'])
    await storage.delete(key)
    expect(await storage.get(key)).toBeNull()
  })

  it('should refuse keys that could leave the root or name anything but a stored image', async () => {
    const storage = new LocalFileStorage(root)
    for (const key of ['../x.png', '7/../../x.png', '/etc/passwd', '7/abc.png', '7/0123456789abcdef0123456789abcdef.svg', '0/0123456789abcdef0123456789abcdef.png']) {
      await expect(storage.put(key, PNG, 'image/png')).rejects.toThrow('invalid storage key')
      expect(await storage.get(key)).toBeNull()
    }
  })
})

describe('image sniffing', () => {
  it('should know JPEG, PNG, GIF and WebP by their first bytes and nothing else', () => {
    expect([JPEG, PNG, GIF, WEBP].map((b) => sniffImage(b)?.extension)).toEqual(['jpg', 'png', 'gif', 'webp'])
    expect(sniffImage(SVG)).toBeNull()
    expect(sniffImage(Buffer.from('RIFF0000AVI '))).toBeNull()
    expect(sniffImage(Buffer.alloc(0))).toBeNull()
  })
})
