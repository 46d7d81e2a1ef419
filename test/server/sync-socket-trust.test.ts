/**
 * The push socket holds only what its session and membership allow, for as long as they do: the
 * permissions of the group it said hello for, closed within seconds once the session is revoked or
 * the member removed, closed when it floods, and pings answered without reading the database.
 */
import type { AddressInfo } from 'node:net'
import type { FastifyInstance } from 'fastify'
import WebSocket from 'ws'
import { SYNC_SOCKET_UNAUTHORIZED } from '../../types/sync'
import { buildApp } from '../../server/src/app'
import * as sessions from '../../server/src/db/sessions'
import { membershipsAmong } from '../../server/src/db/joins'
import { SYNC_SOCKET_FLOOD, SYNC_SOCKET_NOT_MEMBER, SyncHub } from '../../server/src/services/sync-hub'
import { expectOk, grant, makeLayer, makeMarker, makeTeam, type Team } from './mapdata-fixture'
import { probe, type SocketProbe } from './sync-fixture'
import type { Auth } from './helpers'

jest.setTimeout(30_000)

let team: Team
let app: FastifyInstance
let hub: SyncHub
let layer: number
const open: SocketProbe[] = []

beforeEach(async () => {
  team = await makeTeam()
  layer = await makeLayer(team.t, team.owner, '点图层', 1)
  await grant(team, layer, team.member, ['layer_data_list', 'marker_add', 'marker_edit'])
  // The audit runs every 50 ms here (3 s by default): a test waits on the close, never on time.
  hub = new SyncHub(team.t.db, { auditIntervalMs: 50, floodMax: 10, floodWindowMs: 60_000, now: team.t.clock.now })
  app = buildApp({ db: team.t.db, clock: team.t.clock, sms: team.t.sms, syncHub: hub })
  await app.listen({ port: 0, host: '127.0.0.1' })
})

afterEach(async () => {
  jest.restoreAllMocks()
  for (const p of open.splice(0)) await p.close()
  await app.close()
  await team.t.close()
})

async function connect(): Promise<SocketProbe> {
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

async function ready(auth: Auth): Promise<SocketProbe> {
  const p = await connect()
  p.hello(auth)
  await p.next('ready')
  return p
}

/** A second sign-in of the member: another device. */
async function secondDevice(): Promise<Auth> {
  return (await team.t.login('13900139000')).auth
}

describe('a socket lives only as long as its session and membership', () => {
  it('closes (4401) within seconds when the session is signed out from another device, without waiting for a ping', async () => {
    const p = await ready(team.member)
    const other = await secondDevice()
    expect(expectOk(await team.t.call('/api/user/session/revoke/others', {}, other))).toEqual({ revoked: 1 })
    expect(await p.closed()).toBe(SYNC_SOCKET_UNAUTHORIZED)
    expect(hub.connected).toBe(0)
  })

  it('closes (4403) within seconds when the member is removed from the group', async () => {
    const p = await ready(team.member)
    const owners = await ready(team.owner)
    const joins = expectOk(await team.t.call('/api/group/get/joins', {}, team.owner))
    const join = joins.list.find((m: { user: { id: number } }) => m.user.id === team.member.userid)
    expectOk(await team.t.call('/api/group/remove/join', { join_id: join.join_id }, team.owner))
    expect(await p.closed()).toBe(SYNC_SOCKET_NOT_MEMBER)
    // The administrator's socket stays, and no longer lists the removed member.
    expect(await owners.next('presence', (m) => m.people.length === 0)).toEqual({ type: 'presence', people: [] })
  })

  it('closes a socket that floods messages (1008), whatever it sends', async () => {
    const p = await ready(team.member)
    for (let i = 0; i < 30; i++) p.send({ type: 'ping' })
    expect(await p.closed()).toBe(SYNC_SOCKET_FLOOD)
    expect(hub.connected).toBe(0)
  })

  it('answers pings without reading the sessions table each time', async () => {
    const p = await ready(team.member)
    const read = jest.spyOn(sessions, 'findLiveSession')
    for (let i = 0; i < 5; i++) {
      p.send({ type: 'ping' })
      expect(await p.next('pong')).toEqual({ type: 'pong' })
    }
    expect(read).not.toHaveBeenCalled()
  })
})

describe("a socket's permissions are those of the group it said hello for", () => {
  it('does not take the permissions of a group the user switches to meanwhile', async () => {
    // The member has a map of their own, where they are the administrator.
    const own = expectOk(await team.t.call('/api/group/create', {}, team.member)).user.select_groupid as number
    expectOk(await team.t.call('/api/group/select', { group_id: team.groupId }, team.member))
    const secret = await makeLayer(team.t, team.owner, '机密', 1)
    const hidden = await makeMarker(team.t, team.owner, secret)

    const member = await ready(team.member)
    const owner = await ready(team.owner)
    await member.next('presence', (m) => m.people.length === 1)
    // Switched to their own map (where they may read everything) while the socket is on the team's.
    expectOk(await team.t.call('/api/group/select', { group_id: own }, team.member))
    // A change in the team makes the hub read the socket's permissions again.
    const visible = await makeMarker(team.t, team.owner, layer)
    await member.next('seq')
    owner.send({ type: 'editing', marker_id: hidden })
    owner.send({ type: 'editing', marker_id: visible })
    const seen = await member.next('presence', (m) => m.people[0]?.editing === visible)
    expect(seen.people).toEqual([{ user_id: team.owner.userid, nickname: '队长', editing: visible }])
    // Between the two, the marker of the layer the member may not read in the team never showed.
    expect(
      await member
        .next('presence', (m) => m.people[0]?.editing === hidden)
        .then(
          () => 'seen',
          () => 'never',
        ),
    ).toBe('never')
  })
})

describe('the audit at scale', () => {
  it('checks the sessions and memberships of thousands of sockets, a bounded number of ids per query', async () => {
    const now = team.t.clock.now().toISOString()
    const userId = team.member.userid as number
    const rows = Array.from({ length: 1500 }, (_, i) => ({ token_hash: `h${i}`, user_id: userId, created_at: now, last_seen_at: now, revoked_at: i % 3 === 0 ? now : null }))
    for (let i = 0; i < rows.length; i += 100)
      await team.t.db.kysely
        .insertInto('sessions')
        .values(rows.slice(i, i + 100))
        .execute()
    const ids = (await team.t.db.kysely.selectFrom('sessions').select('id').where('token_hash', 'like', 'h%').execute()).map((r) => r.id)
    const live = await sessions.liveSessionIdsAmong(team.t.db.kysely, ids, '2000-01-01T00:00:00.000Z')
    expect(live.size).toBe(1000)
    const pairs = Array.from({ length: 1200 }, (_, i) => ({ groupId: team.groupId, userId: i === 0 ? userId : 1_000_000 + i }))
    expect([...(await membershipsAmong(team.t.db.kysely, pairs))]).toEqual([`${team.groupId}:${userId}`])
  })
})
