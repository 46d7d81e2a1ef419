/**
 * Several servers behind a load balancer: two real server processes on one database, each with
 * its own DATA_DIR. On PostgreSQL (scripts/pg-test.sh) the uploaded files go to the stored_files
 * table by default, so nothing on either machine's disk is shared; on SQLite (one machine) the two
 * processes share the database file and the uploads folder of one DATA_DIR. Either way: a photo
 * uploaded through one is served by the other, a share password tried on one counts on the other
 * (the tries are rows in the database), and a session signed in on one works on the other.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer, type AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { Client } from 'pg'
import { ErrCode } from '../../types/api'
import { SHARE_MSG } from '../../src/domain/shareMessages'
import { shareBody } from './share-fixture'
import { PNG_BYTES } from './upload-fixture'

jest.setTimeout(120_000)

const ROOT = resolve(__dirname, '../..')
const TSX = join(ROOT, 'node_modules/tsx/dist/cli.mjs')
const databaseUrl = process.env.DATABASE_URL

interface Server {
  url: string
  child: ChildProcess
  out: { text: string }
}

function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const s = createServer()
    s.once('error', fail)
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as AddressInfo).port
      s.close(() => done(port))
    })
  })
}

/** Waits on the server's own output (the listen line, the printed SMS code), failing if it exits. */
function outputMatching(server: Server, pattern: RegExp): Promise<RegExpMatchArray> {
  return new Promise((done, fail) => {
    const check = () => {
      const found = server.out.text.match(pattern)
      if (found) {
        server.child.stdout!.off('data', check)
        server.child.off('exit', exited)
        done(found)
      }
    }
    const exited = () => fail(new Error(`server exited:\n${server.out.text}`))
    server.child.stdout!.on('data', check)
    server.child.once('exit', exited)
    check()
  })
}

/** A call as the client at `client` (the load balancer's X-Forwarded-For: the servers trust 127.0.0.1). */
async function post(server: Server, path: string, body: object, client = '198.51.100.7'): Promise<any> {
  const res = await fetch(`${server.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-forwarded-for': client }, body: JSON.stringify(body) })
  return res.json()
}

async function upload(server: Server, auth: { userid: number; token: string }): Promise<any> {
  const form = new FormData()
  form.append('type', 'note')
  form.append('userid', String(auth.userid))
  form.append('token', auth.token)
  form.append('file', new Blob([PNG_BYTES], { type: 'image/png' }), 'a.png')
  const res = await fetch(`${server.url}/api/system/upload`, { method: 'POST', body: form })
  return res.json()
}

describe(`two servers on one ${databaseUrl ? 'PostgreSQL' : 'SQLite'} database`, () => {
  const schema = `test_${randomBytes(6).toString('hex')}`
  const servers: Server[] = []
  let dir: string
  let one: Server
  let two: Server

  async function startServer(): Promise<Server> {
    const port = await freePort()
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      STATIC_DIR: join(dir, 'h5'),
      TRUST_PROXY: '127.0.0.1',
      FILE_STORAGE: '',
      LOG_LEVEL: 'info',
      NODE_OPTIONS: '',
    }
    if (databaseUrl) {
      const url = new URL(databaseUrl)
      url.searchParams.set('options', `-c search_path=${schema}`)
      env.DATABASE_URL = url.toString()
      env.DATA_DIR = join(dir, `data-${port}`)
    } else {
      env.DATABASE_URL = ''
      env.DATA_DIR = join(dir, 'data')
    }
    const child = spawn(process.execPath, [TSX, 'server/src/main.ts'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] })
    const server: Server = { url: `http://127.0.0.1:${port}`, child, out: { text: '' } }
    child.stdout!.setEncoding('utf8').on('data', (d: string) => (server.out.text += d))
    child.stderr!.setEncoding('utf8').on('data', (d: string) => (server.out.text += d))
    servers.push(server)
    await outputMatching(server, /Server listening/)
    return server
  }

  async function signIn(server: Server, phone: string): Promise<{ userid: number; token: string }> {
    await post(server, '/api/system/send/code', { phone })
    const [, code] = await outputMatching(server, new RegExp(`phone=${phone} code=(\\d{6})`))
    const login = await post(server, '/api/user/login', { phone, code, channel: 'app_h5' })
    return { userid: login.data.user.id, token: login.data.user.token }
  }

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'teammap-two-'))
    if (databaseUrl) {
      const admin = new Client({ connectionString: databaseUrl })
      await admin.connect()
      await admin.query(`create schema ${schema}`)
      await admin.end()
    }
    // One after the other: each migrates the database on start.
    one = await startServer()
    two = await startServer()
  })

  afterAll(async () => {
    for (const s of servers) {
      if (s.child.exitCode !== null) continue
      const exited = new Promise((done) => s.child.once('exit', done))
      s.child.kill('SIGTERM')
      await exited
    }
    if (databaseUrl) {
      const admin = new Client({ connectionString: databaseUrl })
      await admin.connect()
      await admin.query(`drop schema if exists ${schema} cascade`)
      await admin.end()
    }
    rmSync(dir, { recursive: true, force: true })
  })

  it('should say which file storage each server chose: the database on PostgreSQL, the local folder on SQLite', () => {
    for (const s of [one, two]) expect(s.out.text).toContain(`file storage: ${databaseUrl ? 'pg' : 'local'}`)
  })

  it('should keep a session signed in on one server on the other, serve there a photo uploaded through the first, and count share password tries across both', async () => {
    const header = await signIn(one, '13800138000')
    const info = await post(two, '/api/user/getinfo', { header })
    expect(info.header.errcode).toBe(0)
    expect(info.data.user).toMatchObject({ id: header.userid, token: header.token })

    await post(one, '/api/user/init', { header, nickname: '队长' })
    expect((await post(two, '/api/group/create', { header, name: '两台' })).header.errcode).toBe(0)

    const uploaded = await upload(one, header)
    expect(uploaded.header.errcode).toBe(0)
    const res = await fetch(`${two.url}${uploaded.data.url}`)
    expect(res.status).toBe(200)
    expect(Buffer.from(await res.arrayBuffer())).toEqual(PNG_BYTES)
    expect(res.headers.get('content-type')).toBe('image/png')
    expect(res.headers.get('x-content-type-options')).toBe('nosniff')
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')

    const layer = await post(one, '/api/layer/save', { header, name: '点图层', type: 1, parent_id: 0 })
    const share = await post(one, '/api/share/save', { header, ...shareBody({ data_ids: [layer.data.id], need_pwd: true, pwd: '2468' }) })
    expect(share.header.errcode).toBe(0)
    // Five wrong tries from one client, spread over both servers, use up its allowance on both.
    for (const [i, server] of [one, two, one, two, two].entries()) {
      expect((await post(server, '/api/share/check/pwd', { id: share.data, pwd: `bad${i}` })).header).toMatchObject({ errcode: ErrCode.VALIDATION, errmsg: SHARE_MSG.pwdWrong })
    }
    for (const server of [one, two]) {
      expect((await post(server, '/api/share/check/pwd', { id: share.data, pwd: '2468' })).header).toMatchObject({
        errcode: ErrCode.RATE_LIMITED,
        errmsg: expect.stringMatching(/^密码错误次数过多，请\d+秒后再试$/),
      })
    }
    // Another client behind the same balancer is its own client (TRUST_PROXY): it still gets in.
    expect((await post(two, '/api/share/check/pwd', { id: share.data, pwd: '2468' }, '198.51.100.8')).data).toHaveProperty('proof')
  })
})
