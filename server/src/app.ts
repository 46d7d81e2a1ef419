/** Builds the API server (no listen(); tests use inject()). */
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify'
import zlib from 'node:zlib'
import compress from '@fastify/compress'
import { registerEnvelopeHandlers } from './envelope'
import { registerSecurityHeaders } from './headers'
import type { AppDeps } from './routes/define'
import { storageOf } from './services/storage'
import { groupRoutes } from './routes/group'
import { layerRoutes } from './routes/layer'
import { markerRoutes } from './routes/marker'
import { markerBulkRoutes } from './routes/marker-bulk'
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
import { printRoutes } from './routes/print'
import { SyncHub } from './services/sync-hub'

export type { AppDeps } from './routes/define'

export interface BuildAppOptions extends AppDeps {
  logger?: FastifyServerOptions['logger']
  /** Whose X-Forwarded-For to believe (TRUST_PROXY, behind a load balancer); none by default. */
  trustProxy?: FastifyServerOptions['trustProxy']
  /** Seconds of Strict-Transport-Security on HTTPS answers (HSTS_MAX_AGE); none when unset. */
  hstsMaxAge?: number
}

export function buildApp({ logger = false, trustProxy, hstsMaxAge, ...given }: BuildAppOptions): FastifyInstance {
  const app = Fastify({ logger, bodyLimit: 1024 * 1024, ...(trustProxy === undefined ? {} : { trustProxy }) })
  // The files' storage belongs to the app itself (a temporary folder when none is given, gone on
  // close), so that the routes' scope below and callers holding the app use the same one.
  const deps: AppDeps = { ...given, storage: storageOf(app, given) }
  const syncHub = deps.syncHub ?? new SyncHub(deps.db, { now: () => deps.clock.now() })
  app.addHook('onClose', () => syncHub.close())
  // Marker pages are JSON that gzip shrinks about tenfold; images and uploads are already compressed
  // (their types are not compressible ones) and the sync socket never passes through onSend.
  void app.register(compress, { encodings: ['br', 'gzip'], threshold: 1024, brotliOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } } })
  registerSecurityHeaders(app, { hstsMaxAge })
  registerEnvelopeHandlers(app)
  // The routes load after compress, so that its onRoute hook gives each of them its onSend hook.
  void app.register(async (scope) => {
    systemRoutes(scope, deps)
    userRoutes(scope, deps)
    groupRoutes(scope, deps)
    layerRoutes(scope, deps)
    markerRoutes(scope, deps)
    markerBulkRoutes(scope, deps)
    moduleRoutes(scope, deps)
    noteRoutes(scope, deps)
    fieldRoutes(scope, deps)
    titleStyleRoutes(scope, deps)
    iconRoutes(scope, deps)
    uploadRoutes(scope, deps)
    oplogRoutes(scope, deps)
    ioRoutes(scope, deps)
    locationRoutes(scope, deps)
    departmentRoutes(scope, deps)
    roleRoutes(scope, deps)
    shareRoutes(scope, deps)
    vipRoutes(scope, deps)
    payRoutes(scope, deps)
    routeRoutes(scope, deps)
    taskRoutes(scope, deps)
    upgradeRoutes(scope, deps)
    distributionRoutes(scope, deps)
    downloadRoutes(scope, deps)
    signRoutes(scope, deps)
    printRoutes(scope, deps)
    syncRoutes(scope, { ...deps, syncHub })
  })
  return app
}
