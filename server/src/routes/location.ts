/**
 * /api/user/location/save and /api/user/location/getbygroupid (SPEC 7): a user reports their
 * position; the members of the caller's map see each other's last positions (toggles them
 * on the map). Only members of the same group are listed.
 */
import type { FastifyInstance } from 'fastify'
import { locationsOfCallersGroup, reportLocation } from '../services/location'
import { locationSave } from '../schemas/location'
import { noFields } from '../schemas/common'
import { callDefiners, type AppDeps } from './define'

export function locationRoutes(app: FastifyInstance, deps: AppDeps): void {
  const { db, clock } = deps
  const { sessionCall } = callDefiners(app, deps)

  sessionCall('/api/user/location/save', locationSave, async (input, caller) => {
    await reportLocation(db.kysely, caller, input, clock.now())
    return null
  })

  sessionCall('/api/user/location/getbygroupid', noFields, async (_input, caller) => locationsOfCallersGroup(db.kysely, caller))
}
