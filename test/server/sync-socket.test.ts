/** The push socket GET /api/sync/socket (types/sync.ts): hello, seq after another's save, presence, editing, closing. */
import type { AddressInfo } from 'node:net'
import type { FastifyInstance } from 'fastify'
import WebSocket from 'ws'
import { SYNC_SOCKET_UNAUTHORIZED } from '../../types/sync'
import { buildApp } from '../../server/src/app'
import { SyncHub } from '../../server/src/services/sync-hub'
import { expectOk, grant, makeLayer, makeMarker, makeTeam, type Team } from './mapdata-fixture'
import { probe, type SocketProbe } from './sync-fixture'

jest.setTimeout(30_000)

let team: Team
let layer: number
const open: SocketProbe[] = []
beforeEach(async () => {
  team = await makeTeam()
  layer = await makeLayer(team.t, team.owner, '点图层', 1)
  await grant(team, layer, team.member, ['layer_data_list', 'marker_add', 'marker_edit'])
})
afterEach(async () => {
  for (const p of open.splice(0)) await p.close()
  await team.t.close()
})

// A real loopback socket: closing an injected one does not reach the server's side.
async function connect(app: FastifyInstance = team.t.app): Promise<SocketProbe> {
  if (!app.server.listening) await app.listen({ port: 0, host: '127.0.0.1' })
  const { port } = app.server.address() as AddressInfo
  const ws = new WebSocket(`ws://127.0.0.1:${port}/api/sync/socket`)
  const p = probe(ws)
  open.push(p)
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve())
    ws.once('error', reject)
  })
  return p
}

describe('GET /api/sync/socket', () => {
  it("should answer hello with ready and the group's current seq", async () => {
    await makeMarker(team.t, team.owner, layer)
    const p = await connect()
    p.hello(team.owner)
    expect(await p.next('ready')).toEqual({ type: 'ready', seq: 2 })
  })

  it('should close with 4401 when the hello names a dead session', async () => {
    const p = await connect()
    p.hello({ userid: team.owner.userid, token: 'not-a-token' })
    expect(await p.closed()).toBe(SYNC_SOCKET_UNAUTHORIZED)
  })

  it('should close with 4401 when the first message is not a hello', async () => {
    const p = await connect()
    p.send({ type: 'ping' })
    expect(await p.closed()).toBe(SYNC_SOCKET_UNAUTHORIZED)
  })

  it('should close with 4401 a socket that says nothing', async () => {
    const hub = new SyncHub(team.t.db, { helloTimeoutMs: 50, now: team.t.clock.now })
    const app = buildApp({ db: team.t.db, clock: team.t.clock, sms: team.t.sms, syncHub: hub })
    try {
      const p = await connect(app)
      expect(await p.closed()).toBe(SYNC_SOCKET_UNAUTHORIZED)
    } finally {
      await app.close()
    }
  })

  it('should close a socket that stays silent for three ping intervals', async () => {
    const hub = new SyncHub(team.t.db, { pingIntervalMs: 40, now: team.t.clock.now })
    const app = buildApp({ db: team.t.db, clock: team.t.clock, sms: team.t.sms, syncHub: hub })
    try {
      const p = await connect(app)
      p.hello(team.owner)
      await p.next('ready')
      expect(await p.closed()).toBe(1001)
      expect(hub.connected).toBe(0)
    } finally {
      await app.close()
    }
  })

  it('should push the new seq after another member saves a marker, and list it in the changes', async () => {
    const p = await connect()
    p.hello(team.member)
    const { seq } = await p.next('ready')
    const id = await makeMarker(team.t, team.owner, layer)
    expect(await p.next('seq')).toEqual({ type: 'seq', seq: seq + 1 })
    const res = expectOk(await team.t.call('/api/sync/changes', { since: seq }, team.member))
    expect(res.changes).toEqual([expect.objectContaining({ kind: 'marker', id, op: 'upsert' })])
  })

  it('should answer ping with pong, and close within seconds once the session has logged out', async () => {
    const p = await connect()
    p.hello(team.member)
    await p.next('ready')
    p.send({ type: 'ping' })
    expect(await p.next('pong')).toEqual({ type: 'pong' })
    expectOk(await team.t.call('/api/user/logout', {}, team.member))
    p.send({ type: 'ping' })
    expect(await p.closed()).toBe(SYNC_SOCKET_UNAUTHORIZED)
  })
})

describe('presence', () => {
  it('should show who else has the map open, one entry per person, and what they edit, until their socket closes', async () => {
    const owner = await connect()
    owner.hello(team.owner)
    await owner.next('ready')
    expect(await owner.next('presence')).toEqual({ type: 'presence', people: [] })

    const member = await connect()
    member.hello(team.member)
    await member.next('ready')
    expect(await member.next('presence', (m) => m.people.length === 1)).toEqual({ type: 'presence', people: [{ user_id: team.owner.userid, nickname: '队长', editing: null }] })
    expect(await owner.next('presence', (m) => m.people.length === 1)).toEqual({ type: 'presence', people: [{ user_id: team.member.userid, nickname: '队员', editing: null }] })

    // A second socket of the same person is still one entry.
    const again = await connect()
    again.hello(team.member)
    await again.next('ready')

    const id = await makeMarker(team.t, team.owner, layer)
    member.send({ type: 'editing', marker_id: id })
    expect(await owner.next('presence', (m) => m.people[0]?.editing === id)).toEqual({ type: 'presence', people: [{ user_id: team.member.userid, nickname: '队员', editing: id }] })

    await member.close()
    await again.close()
    expect(await owner.next('presence', (m) => m.people.length === 0)).toEqual({ type: 'presence', people: [] })
  })

  it('should not show a marker being edited to someone who cannot read its layer', async () => {
    const secret = await makeLayer(team.t, team.owner, '机密', 1)
    const id = await makeMarker(team.t, team.owner, secret)
    const member = await connect()
    member.hello(team.member)
    await member.next('ready')
    const owner = await connect()
    owner.hello(team.owner)
    await owner.next('ready')
    await member.next('presence', (m) => m.people.length === 1)
    owner.send({ type: 'editing', marker_id: id })
    const other = await makeMarker(team.t, team.owner, layer)
    owner.send({ type: 'editing', marker_id: other })
    // The member hears of the marker they may read, and never of the other.
    const seen = await member.next('presence', (m) => m.people[0]?.editing === other)
    expect(seen.people).toEqual([{ user_id: team.owner.userid, nickname: '队长', editing: other }])
  })
})
