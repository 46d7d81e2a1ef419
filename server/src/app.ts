/** Builds the API server (no listen(); tests use inject()). */
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify'
import { registerEnvelopeHandlers } from './envelope'
import { registerSecurityHeaders } from './headers'
import type { AppDeps } from './routes/define'
import { groupRoutes } from './routes/group'
import { layerRoutes } from './routes/layer'
import { markerRoutes } from './routes/marker'
import { moduleRoutes } from './routes/module'
import { systemRoutes } from './routes/system'
import { userRoutes } from './routes/user'
import { noteRoutes } from './routes/note'
import { fieldRoutes } from './routes/field'
import { titleStyleRoutes } from './routes/title-style'
import { iconRoutes } from './routes/icon'
import { uploadRoutes } from './routes/upload'
import { oplogRoutes } from './routes/oplog'
import { ioRoutes } from './routes/io'
import { locationRoutes } from './routes/location'
import { departmentRoutes } from './routes/department'
import { roleRoutes } from './routes/role'
import { shareRoutes } from './routes/share'
import { vipRoutes } from './routes/vip'
import { payRoutes } from './routes/pay'
import { routeRoutes } from './routes/route'
import { taskRoutes } from './routes/task'
import { upgradeRoutes } from './routes/upgrade'
import { distributionRoutes } from './routes/distribution'
import { downloadRoutes } from './routes/download'
import { signRoutes } from './routes/sign'
import { syncRoutes } from './routes/sync'
import { SyncHub } from './services/sync-hub'

export type { AppDeps } from './routes/define'

export interface BuildAppOptions extends AppDeps {
  logger?: FastifyServerOptions['logger']
  /** Whose X-Forwarded-For to believe (TRUST_PROXY, behind a load balancer); none by default. */
  trustProxy?: FastifyServerOptions['trustProxy']
}

export function buildApp({ logger = false, trustProxy, ...deps }: BuildAppOptions): FastifyInstance {
  const app = Fastify({ logger, bodyLimit: 1024 * 1024, ...(trustProxy === undefined ? {} : { trustProxy }) })
  const syncHub = deps.syncHub ?? new SyncHub(deps.db)
  app.addHook('onClose', () => syncHub.close())
  registerSecurityHeaders(app)
  registerEnvelopeHandlers(app)
  systemRoutes(app, deps)
  userRoutes(app, deps)
  groupRoutes(app, deps)
  layerRoutes(app, deps)
  markerRoutes(app, deps)
  moduleRoutes(app, deps)
  noteRoutes(app, deps)
  fieldRoutes(app, deps)
  titleStyleRoutes(app, deps)
  iconRoutes(app, deps)
  uploadRoutes(app, deps)
  oplogRoutes(app, deps)
  ioRoutes(app, deps)
  locationRoutes(app, deps)
  departmentRoutes(app, deps)
  roleRoutes(app, deps)
  shareRoutes(app, deps)
  vipRoutes(app, deps)
  payRoutes(app, deps)
  routeRoutes(app, deps)
  taskRoutes(app, deps)
  upgradeRoutes(app, deps)
  distributionRoutes(app, deps)
  downloadRoutes(app, deps)
  signRoutes(app, deps)
  syncRoutes(app, { ...deps, syncHub })
  return app
}
