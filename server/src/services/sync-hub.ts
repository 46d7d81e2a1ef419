/**
 * The push side of live sync (types/sync.ts): the sockets open on this server, by group. It tells
 * each socket its group's new seq once a change has committed, and who else in the group has the
 * map open and what they edit.
 *
 * Where the news comes from: this process's commits (syncFeed, after commit) and, on PostgreSQL,
 * LISTEN on one dedicated connection: changes committed through another server arrive by NOTIFY
 * (sent inside the change's transaction, so delivered at commit), and so does the presence of the
 * people connected to other servers (each server announces its own, with its id).
 */
import { randomBytes } from 'node:crypto'
import type { PoolClient } from 'pg'
import type { PresenceEntry, SyncClientMessage, SyncServerMessage } from '../../../types/sync'
import { SYNC_PING_INTERVAL_MS, SYNC_SOCKET_UNAUTHORIZED } from '../../../types/sync'
import { authenticate, sessionActiveSince } from '../auth'
import { listenToChannel, notifyChannel, stopListening } from '../db/change-log'
import type { Database } from '../db/connection'
import { findMarker, nicknamesOf } from '../db/markers'
import { membershipsAmong } from '../db/joins'
import { liveSessionIdsAmong } from '../db/sessions'
import { callerInGroup, mapCaller, optsResolver } from './permissions'
import { currentSeq, syncFeed, type SeqEvent } from './sync'

/** What the hub needs of a WebSocket (ws's WebSocket has it). */
export interface HubSocket {
  send(text: string): void
  close(code?: number, reason?: string): void
  on(event: 'message', listener: (data: unknown) => void): unknown
  on(event: 'close', listener: () => void): unknown
}

export interface SyncHubOptions {
  /** The client pings this often; a socket silent for three times as long is closed. */
  pingIntervalMs?: number
  /** A socket that has not said hello by then is closed with 4401. */
  helloTimeoutMs?: number
  /**
   * How often the hub checks, in one query each, that every socket's session is still live and its
   * user still a member of its group: a revoked session or a removed member is closed within this.
   */
  auditIntervalMs?: number
  /** Messages one socket may send within floodWindowMs; one more closes it (1008). */
  floodMax?: number
  floodWindowMs?: number
  now?: () => Date
}

/** A client pings every 25 s and tells what it edits when a person opens a marker: 40 in 10 s is far beyond either. */
const FLOOD_MAX = 40
const FLOOD_WINDOW_MS = 10_000
const AUDIT_INTERVAL_MS = 3_000

interface Client {
  socket: HubSocket
  userId: number
  sessionId: number
  token: string
  groupId: number
  nickname: string
  editing: number | null
  /** The layer of the marker being edited: others see the marker only when they read that layer. */
  editingLayer: number
  /** The layers this client reads (presence shows only markers in them); refreshed when the group changes. */
  readable: (layerId: number) => boolean
  readableStale: boolean
  lastSeq: number
  lastHeard: number
}

/** Close code for a socket whose user is no longer a member of the group it said hello for. */
export const SYNC_SOCKET_NOT_MEMBER = 4403
/** Close code (RFC 6455 policy violation) for a socket sending more than the hub takes. */
export const SYNC_SOCKET_FLOOD = 1008

interface Announced {
  people: (PresenceEntry & { layer_id: number })[]
  at: number
}

type Wire =
  | { type: 'seq'; group_id: number; seq: number; schema?: string }
  | { type: 'presence'; server: string; group_id: number; people: Announced['people']; schema?: string }
  | { type: 'presence-ask'; server: string; group_id: number; schema?: string }

export class SyncHub {
  readonly serverId = randomBytes(8).toString('hex')
  private readonly groups = new Map<number, Set<Client>>()
  /** Presence announced by other servers: server id -> group -> people. */
  private readonly remote = new Map<string, Map<number, Announced>>()
  private readonly pingIntervalMs: number
  private readonly helloTimeoutMs: number
  private readonly auditIntervalMs: number
  private readonly floodMax: number
  private readonly floodWindowMs: number
  private auditor?: NodeJS.Timeout
  private auditing = false
  private readonly now: () => Date
  private listener?: PoolClient
  private listening?: Promise<void>
  private sweeper?: NodeJS.Timeout
  private closed = false
  private readonly onSeq = (event: SeqEvent) => {
    if (event.db === this.db) this.pushSeq(event.groupId, event.seq)
  }

  constructor(
    private readonly db: Database,
    options: SyncHubOptions = {},
  ) {
    this.pingIntervalMs = options.pingIntervalMs ?? SYNC_PING_INTERVAL_MS
    this.helloTimeoutMs = options.helloTimeoutMs ?? 10_000
    this.auditIntervalMs = options.auditIntervalMs ?? AUDIT_INTERVAL_MS
    this.floodMax = options.floodMax ?? FLOOD_MAX
    this.floodWindowMs = options.floodWindowMs ?? FLOOD_WINDOW_MS
    this.now = options.now ?? (() => new Date())
    syncFeed.on('seq', this.onSeq)
  }

  /** Takes a new socket: it must say hello within helloTimeoutMs. */
  accept(socket: HubSocket): void {
    let client: Client | undefined
    let greeting = false
    let gone = false
    // Messages in the current window, before or after hello alike.
    let windowStart = Date.now()
    let inWindow = 0
    const helloTimer = setTimeout(() => {
      if (!client) socket.close(SYNC_SOCKET_UNAUTHORIZED, 'hello expected')
    }, this.helloTimeoutMs)
    socket.on('close', () => {
      gone = true
      clearTimeout(helloTimer)
      if (client) this.leave(client)
      client = undefined
    })
    socket.on('message', (data) => {
      if (gone) return
      const at = Date.now()
      if (at - windowStart >= this.floodWindowMs) {
        windowStart = at
        inWindow = 0
      }
      if (++inWindow > this.floodMax) {
        gone = true
        if (client) this.drop(client, SYNC_SOCKET_FLOOD, 'flood')
        else socket.close(SYNC_SOCKET_FLOOD, 'flood')
        return
      }
      let message: SyncClientMessage
      try {
        message = JSON.parse(String(data)) as SyncClientMessage
      } catch {
        return
      }
      if (!client) {
        if (greeting) return
        if (message?.type !== 'hello') {
          socket.close(SYNC_SOCKET_UNAUTHORIZED, 'hello expected')
          return
        }
        greeting = true
        // The client is known before ready goes out, so that nothing it sends after ready is missed.
        const joined = (c: Client) => {
          clearTimeout(helloTimer)
          client = c
        }
        void this.hello(socket, message, joined).then(
          (c) => {
            // Closed while its hello was being checked.
            if (gone) this.leave(c)
          },
          () => socket.close(SYNC_SOCKET_UNAUTHORIZED, 'session'),
        )
        return
      }
      client.lastHeard = Date.now()
      // Answered from memory: the session and the membership are the audit's (auditIntervalMs).
      if (message?.type === 'ping') send(client.socket, { type: 'pong' })
      else if (message?.type === 'editing') void this.editing(client, message.marker_id)
    })
  }

  private async hello(socket: HubSocket, message: { token?: unknown; userid?: unknown }, joined: (client: Client) => void): Promise<Client> {
    const caller = await authenticate(this.db, { token: message.token, userid: message.userid }, this.now())
    // The group it says hello for is its selected group now; it keeps that group's permissions.
    const who = await mapCaller(this.db.kysely, caller)
    await this.listen()
    const [seq, names, readable] = await Promise.all([currentSeq(this.db.kysely, who.groupId), nicknamesOf(this.db.kysely, [who.userId]), this.readableFor(who.userId, who.groupId)])
    const client: Client = {
      socket,
      userId: who.userId,
      sessionId: caller.sessionId,
      token: caller.token,
      groupId: who.groupId,
      nickname: names.get(who.userId) ?? '',
      editing: null,
      editingLayer: 0,
      readable,
      readableStale: false,
      lastSeq: seq,
      lastHeard: Date.now(),
    }
    joined(client)
    send(socket, { type: 'ready', seq })
    let members = this.groups.get(who.groupId)
    const first = !members
    if (!members) this.groups.set(who.groupId, (members = new Set()))
    members.add(client)
    this.startSweeper()
    this.startAuditor()
    // A server that has just started asks the others who is on this group's map.
    if (first) void this.announce({ type: 'presence-ask', server: this.serverId, group_id: who.groupId })
    await this.presenceChanged(who.groupId)
    return client
  }

  /** What the user may read in the socket's group (not their selected group of the moment). */
  private async readableFor(userId: number, groupId: number): Promise<(layerId: number) => boolean> {
    const who = await callerInGroup(this.db.kysely, userId, groupId)
    const optsOf = await optsResolver(this.db.kysely, who)
    return (layerId) => optsOf(layerId).length > 0
  }

  /**
   * Closes the sockets whose session was revoked or went unused too long (4401) and those whose user
   * left or was removed from the socket's group (4403): two queries for all of this server's sockets.
   */
  async audit(): Promise<void> {
    if (this.auditing || this.closed) return
    this.auditing = true
    try {
      const clients = [...this.groups.values()].flatMap((members) => [...members])
      if (clients.length === 0) return
      const [live, members] = await Promise.all([
        liveSessionIdsAmong(this.db.kysely, [...new Set(clients.map((c) => c.sessionId))], sessionActiveSince(this.now())),
        membershipsAmong(
          this.db.kysely,
          clients.map((c) => ({ groupId: c.groupId, userId: c.userId })),
        ),
      ])
      for (const c of clients) {
        if (!live.has(c.sessionId)) this.drop(c, SYNC_SOCKET_UNAUTHORIZED, 'session')
        else if (!members.has(`${c.groupId}:${c.userId}`)) this.drop(c, SYNC_SOCKET_NOT_MEMBER, 'membership')
      }
    } catch {
      // A database hiccup: the next round checks again.
    } finally {
      this.auditing = false
    }
  }

  private startAuditor(): void {
    if (this.auditor || this.closed) return
    this.auditor = setInterval(() => void this.audit(), this.auditIntervalMs)
    this.auditor.unref()
  }

  private async editing(client: Client, markerId: number | null): Promise<void> {
    let layer = 0
    if (typeof markerId === 'number') {
      const marker = await findMarker(this.db.kysely, client.groupId, markerId)
      if (!marker || !client.readable(marker.layer_id)) return
      layer = marker.layer_id
    }
    const editing = layer ? markerId : null
    if (client.editing === editing) return
    client.editing = editing
    client.editingLayer = layer
    await this.presenceChanged(client.groupId)
  }

  /** Closes a socket the hub gives up on; it leaves the group at once, not when the close handshake ends. */
  private drop(client: Client, code: number, reason: string): void {
    this.leave(client)
    client.socket.close(code, reason)
  }

  private leave(client: Client): void {
    const members = this.groups.get(client.groupId)
    if (!members?.delete(client)) return
    if (members.size === 0) this.groups.delete(client.groupId)
    void this.presenceChanged(client.groupId)
  }

  /** Tells this group's sockets the new seq (once each: the same seq may arrive by feed and by NOTIFY). */
  private pushSeq(groupId: number, seq: number): void {
    for (const client of this.groups.get(groupId) ?? []) {
      client.readableStale = true
      if (seq <= client.lastSeq) continue
      client.lastSeq = seq
      send(client.socket, { type: 'seq', seq })
    }
  }

  /** This server's people on the group's map, one entry per person. */
  private localPeople(groupId: number): Announced['people'] {
    const byUser = new Map<number, Announced['people'][number]>()
    for (const c of this.groups.get(groupId) ?? []) {
      const known = byUser.get(c.userId)
      if (!known) byUser.set(c.userId, { user_id: c.userId, nickname: c.nickname, editing: c.editing, layer_id: c.editingLayer })
      else if (known.editing === null && c.editing !== null) Object.assign(known, { editing: c.editing, layer_id: c.editingLayer })
    }
    return [...byUser.values()]
  }

  private async presenceChanged(groupId: number): Promise<void> {
    await this.announce({ type: 'presence', server: this.serverId, group_id: groupId, people: this.localPeople(groupId) })
    await this.sendPresence(groupId)
  }

  /** Everyone else on the group's map, as each local socket may see it. */
  private async sendPresence(groupId: number): Promise<void> {
    const everyone = new Map<number, Announced['people'][number]>()
    const expired = Date.now() - 3 * this.pingIntervalMs
    const add = (p: Announced['people'][number]) => {
      const known = everyone.get(p.user_id)
      if (!known || (known.editing === null && p.editing !== null)) everyone.set(p.user_id, p)
    }
    for (const p of this.localPeople(groupId)) add(p)
    for (const groups of this.remote.values()) {
      const announced = groups.get(groupId)
      if (announced && announced.at >= expired) announced.people.forEach(add)
    }
    for (const client of this.groups.get(groupId) ?? []) {
      if (client.readableStale) {
        client.readableStale = false
        client.readable = await this.readableFor(client.userId, client.groupId).catch(() => () => false)
      }
      const people: PresenceEntry[] = [...everyone.values()]
        .filter((p) => p.user_id !== client.userId)
        .map((p) => ({ user_id: p.user_id, nickname: p.nickname, editing: p.editing !== null && client.readable(p.layer_id) ? p.editing : null }))
      send(client.socket, { type: 'presence', people })
    }
  }

  /** Tells the other servers (PostgreSQL); nothing to do on SQLite, where this is the only server. */
  private async announce(message: Wire): Promise<void> {
    if (this.db.dialect !== 'postgres' || this.closed) return
    await notifyChannel(this.db.kysely, message).catch(() => undefined)
  }

  /** LISTENs on PostgreSQL once, on a connection of its own. */
  private listen(): Promise<void> {
    if (this.db.dialect !== 'postgres' || !this.db.pgPool) return Promise.resolve()
    this.listening ??= (async () => {
      const client = await this.db.pgPool!.connect()
      this.listener = client
      this.schema = await listenToChannel(client, (payload) => this.received(payload))
    })()
    return this.listening
  }

  private schema?: string

  private received(payload: string): void {
    let message: Wire
    try {
      message = JSON.parse(payload) as Wire
    } catch {
      return
    }
    // Test schemas share one database: news of another schema is not ours.
    if (message.schema !== this.schema) return
    if (message.type === 'seq') this.pushSeq(message.group_id, message.seq)
    else if (message.server === this.serverId) return
    else if (message.type === 'presence') {
      let groups = this.remote.get(message.server)
      if (!groups) this.remote.set(message.server, (groups = new Map()))
      if (message.people.length === 0) groups.delete(message.group_id)
      else groups.set(message.group_id, { people: message.people, at: Date.now() })
      if (this.groups.has(message.group_id)) void this.sendPresence(message.group_id)
    } else if (message.type === 'presence-ask' && this.groups.has(message.group_id)) {
      void this.announce({ type: 'presence', server: this.serverId, group_id: message.group_id, people: this.localPeople(message.group_id) })
    }
  }

  /** Closes silent sockets and re-announces presence, so that other servers' entries of a server that died expire. */
  private startSweeper(): void {
    if (this.sweeper || this.closed) return
    this.sweeper = setInterval(() => {
      const silentSince = Date.now() - 3 * this.pingIntervalMs
      for (const [groupId, members] of this.groups) {
        for (const c of members) if (c.lastHeard < silentSince) this.drop(c, 1001, 'silent')
        void this.announce({ type: 'presence', server: this.serverId, group_id: groupId, people: this.localPeople(groupId) })
      }
    }, this.pingIntervalMs)
    this.sweeper.unref()
  }

  /** How many sockets have said hello (the bench and tests read it). */
  get connected(): number {
    let n = 0
    for (const members of this.groups.values()) n += members.size
    return n
  }

  async close(): Promise<void> {
    if (this.closed) return
    this.closed = true
    syncFeed.off('seq', this.onSeq)
    if (this.sweeper) clearInterval(this.sweeper)
    if (this.auditor) clearInterval(this.auditor)
    for (const members of this.groups.values()) for (const c of members) c.socket.close(1001, 'server closing')
    this.groups.clear()
    await this.listening?.catch(() => undefined)
    if (this.listener) {
      const client = this.listener
      this.listener = undefined
      await stopListening(client).catch(() => undefined)
      client.release()
    }
  }
}

function send(socket: HubSocket, message: SyncServerMessage): void {
  try {
    socket.send(JSON.stringify(message))
  } catch {
    // A socket closing meanwhile: its close handler cleans up.
  }
}
