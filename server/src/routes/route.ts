/** /api/route/* (issue 8). Filled in by the routes work. */
import type { FastifyInstance } from 'fastify'
import type { AppDeps } from './define'

export function routeRoutes(_app: FastifyInstance, _deps: AppDeps): void {}
