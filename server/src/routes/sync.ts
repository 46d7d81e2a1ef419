/** /api/sync/*: the group's change log since a seq, and the push socket (GET /api/sync/socket, types/sync.ts). */
import type { FastifyInstance } from 'fastify'
import websocket from '@fastify/websocket'
import { changesSince } from '../services/sync'
import type { SyncHub } from '../services/sync-hub'
import { changesFields } from '../schemas/sync'
import { callDefiners, type AppDeps } from './define'

export function syncRoutes(app: FastifyInstance, deps: AppDeps & { syncHub: SyncHub }): void {
  const { db, syncHub } = deps
  const { sessionCall } = callDefiners(app, deps)

  sessionCall('/api/sync/changes', changesFields, async ({ since, limit }, caller) => changesSince(db.kysely, caller, since, limit))

  // The session comes in the socket's first message (browsers cannot set headers on a WebSocket).
  // Registered on the app itself (it decorates it with the websocket server); the route after it has loaded.
  void app.register(websocket, { options: { maxPayload: 64 * 1024 } })
  void app.register(async (scope) => {
    scope.get('/api/sync/socket', { websocket: true }, (socket) => syncHub.accept(socket))
  })
}
