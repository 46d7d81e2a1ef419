/** /api/module/*: the permission catalogue (SPEC 3) as far as map data uses it. */
import type { FastifyInstance } from 'fastify'
import { LAYER_PERMISSIONS, PERMISSION_CATALOGUE } from '../../../src/domain/permissions'
import { callDefiners, type AppDeps } from './define'
import { noFields } from './fields'

export function moduleRoutes(app: FastifyInstance, deps: AppDeps): void {
  const { sessionCall } = callDefiners(app, deps)

  // The ids that can be granted on one layer, in catalogue order (what the layer permission editor lists).
  sessionCall('/api/module/getlist/layer', noFields, async () => PERMISSION_CATALOGUE.filter((p) => (LAYER_PERMISSIONS as string[]).includes(p.id)))
}
