/**
 * Live sync across servers: two real server processes on one PostgreSQL database (what a
 * deployment that outgrows one machine runs). A save through one reaches a socket open on the
 * other through LISTEN/NOTIFY. On SQLite there is only ever one server: the same journey runs with
 * two clients of one server.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { Client } from 'pg'
import WebSocket from 'ws'
import { probe, type SocketProbe } from './sync-fixture'
import { makeTeam, makeLayer, type Team } from './mapdata-fixture'
import type { AddressInfo } from 'node:net'

jest.setTimeout(120_000)

const ROOT = resolve(__dirname, '../..')
const TSX = join(ROOT, 'node_modules/tsx/dist/cli.mjs')

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

async function openSocket(url: string): Promise<SocketProbe> {
  const ws = new WebSocket(url)
  const p = probe(ws)
  await new Promise<void>((done, fail) => {
    ws.once('open', () => done())
    ws.once('error', fail)
  })
  return p
}

interface Server {
  url: string
  child: ChildProcess
  out: { text: string }
}

async function post(url: string, body: object): Promise<any> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
  return res.json()
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

const databaseUrl = process.env.DATABASE_URL

if (databaseUrl) {
  describe('two servers on one PostgreSQL database', () => {
    const schema = `test_${randomBytes(6).toString('hex')}`
    const servers: Server[] = []
    let dir: string
    let socket: SocketProbe | undefined
    let memberSocket: SocketProbe | undefined
    // What the first test leaves for the second: the two servers, the owner's session, a marker.
    let one: Server
    let two: Server
    let header: { userid: number; token: string }
    let layerId: number
    let markerId: number

    async function signIn(server: Server, phone: string): Promise<{ userid: number; token: string }> {
      await post(`${server.url}/api/system/send/code`, { phone })
      const [, code] = await outputMatching(server, new RegExp(`phone=${phone} code=(\\d{6})`))
      const login = await post(`${server.url}/api/user/login`, { phone, code, channel: 'app_h5' })
      return { userid: login.data.user.id, token: login.data.user.token }
    }

    async function startServer(): Promise<Server> {
      const port = await freePort()
      const url = new URL(databaseUrl!)
      url.searchParams.set('options', `-c search_path=${schema}`)
      const child = spawn(process.execPath, [TSX, 'server/src/main.ts'], {
        cwd: ROOT,
        env: {
          ...process.env,
          PORT: String(port),
          HOST: '127.0.0.1',
          DATA_DIR: join(dir, `data-${port}`),
          STATIC_DIR: join(dir, 'h5'),
          DATABASE_URL: url.toString(),
          LOG_LEVEL: 'info',
          NODE_OPTIONS: '',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      })
      const server: Server = { url: `http://127.0.0.1:${port}`, child, out: { text: '' } }
      child.stdout!.setEncoding('utf8').on('data', (d: string) => (server.out.text += d))
      child.stderr!.setEncoding('utf8').on('data', (d: string) => (server.out.text += d))
      servers.push(server)
      await outputMatching(server, /Server listening/)
      return server
    }

    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), 'teammap-sync-'))
      const admin = new Client({ connectionString: databaseUrl })
      await admin.connect()
      await admin.query(`create schema ${schema}`)
      await admin.end()
    })

    afterAll(async () => {
      await socket?.close()
      await memberSocket?.close()
      for (const s of servers) {
        if (s.child.exitCode !== null) continue
        const exited = new Promise((done) => s.child.once('exit', done))
        s.child.kill('SIGTERM')
        await exited
      }
      const admin = new Client({ connectionString: databaseUrl })
      await admin.connect()
      await admin.query(`drop schema if exists ${schema} cascade`)
      await admin.end()
      rmSync(dir, { recursive: true, force: true })
    })

    it('should push a marker saved through one server to a socket open on the other, and list it there', async () => {
      // One after the other: each migrates the schema on start.
      one = await startServer()
      two = await startServer()
      header = await signIn(one, '13800138000')
      await post(`${one.url}/api/user/init`, { header, nickname: '队长' })
      await post(`${one.url}/api/group/create`, { header, name: '两台' })
      const layer = await post(`${one.url}/api/layer/save`, { header, name: '点图层', type: 1, parent_id: 0 })
      layerId = layer.data.id

      socket = await openSocket(`${two.url.replace('http', 'ws')}/api/sync/socket`)
      socket.hello({ userid: header.userid, token: header.token })
      const ready = await socket.next('ready')

      const saved = await post(`${one.url}/api/marker/save`, { header, layer_id: layer.data.id, name: '井', type: 0, points: '116.397428,39.90923' })
      expect(saved.header.errcode).toBe(0)
      expect(await socket.next('seq')).toEqual({ type: 'seq', seq: ready.seq + 1 })
      const changes = await post(`${two.url}/api/sync/changes`, { header, since: ready.seq })
      expect(changes.data.changes).toEqual([expect.objectContaining({ kind: 'marker', id: saved.data.id, op: 'upsert', rev: 1, layer_id: layer.data.id })])
      markerId = saved.data.id
    })

    it('should show on one server who has the map open on the other, and what they edit, until their socket closes', async () => {
      const member = await signIn(one, '13900139000')
      await post(`${one.url}/api/user/init`, { header: member, nickname: '队员' })
      const { data: invite } = await post(`${one.url}/api/group/invite/code`, { header })
      expect((await post(`${one.url}/api/group/join`, { header: member, code: invite.code })).header.errcode).toBe(0)
      await post(`${one.url}/api/layer/save/auth`, { header, layer_id: layerId, user_id: member.userid, opts: ['layer_data_list'] })

      // The owner's socket is on server two, the member's on server one.
      memberSocket = await openSocket(`${one.url.replace('http', 'ws')}/api/sync/socket`)
      memberSocket.hello(member)
      await memberSocket.next('ready')
      expect(await memberSocket.next('presence', (m) => m.people.length === 1)).toEqual({ type: 'presence', people: [{ user_id: header.userid, nickname: '队长', editing: null }] })
      expect(await socket!.next('presence', (m) => m.people.length === 1)).toEqual({ type: 'presence', people: [{ user_id: member.userid, nickname: '队员', editing: null }] })

      memberSocket.send({ type: 'editing', marker_id: markerId })
      expect(await socket!.next('presence', (m) => m.people[0]?.editing === markerId)).toEqual({ type: 'presence', people: [{ user_id: member.userid, nickname: '队员', editing: markerId }] })

      await memberSocket.close()
      expect(await socket!.next('presence', (m) => m.people.length === 0)).toEqual({ type: 'presence', people: [] })
    })
  })
} else {
  describe('two clients of one server (SQLite runs a single server)', () => {
    let team: Team
    let socket: SocketProbe | undefined
    beforeEach(async () => {
      team = await makeTeam()
    })
    afterEach(async () => {
      await socket?.close()
      await team.t.close()
    })

    it("should push a marker saved by one client to the other client's socket, and list it in its changes", async () => {
      const layer = await makeLayer(team.t, team.owner, '点图层', 1)
      await team.t.app.listen({ port: 0, host: '127.0.0.1' })
      const { port } = team.t.app.server.address() as AddressInfo
      socket = await openSocket(`ws://127.0.0.1:${port}/api/sync/socket`)
      socket.hello(team.owner)
      const ready = await socket.next('ready')
      const saved = await team.t.call('/api/marker/save', { layer_id: layer, name: '井', type: 0, points: '116.397428,39.90923' }, team.owner)
      expect(await socket.next('seq')).toEqual({ type: 'seq', seq: ready.seq + 1 })
      const changes = await team.t.call('/api/sync/changes', { since: ready.seq }, team.owner)
      expect(changes.data.changes).toEqual([expect.objectContaining({ kind: 'marker', id: saved.data.id, op: 'upsert', rev: 1, layer_id: layer })])
    })
  })
}
