/** Builds the API server (no listen(); tests use inject()). */
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify'
import { registerEnvelopeHandlers } from './envelope'
import type { AppDeps } from './routes/define'
import { groupRoutes } from './routes/group'
import { systemRoutes } from './routes/system'
import { userRoutes } from './routes/user'

export type { AppDeps } from './routes/define'

export interface BuildAppOptions extends AppDeps {
  logger?: FastifyServerOptions['logger']
}

export function buildApp({ logger = false, ...deps }: BuildAppOptions): FastifyInstance {
  const app = Fastify({ logger, bodyLimit: 1024 * 1024 })
  registerEnvelopeHandlers(app)
  systemRoutes(app, deps)
  userRoutes(app, deps)
  groupRoutes(app, deps)
  return app
}
