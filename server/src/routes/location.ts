/**
 * /api/user/location/save and /api/user/location/getbygroupid (SPEC 7): a user reports their
 * position; the members of the caller's map see each other's last positions (toggles them
 * on the map). Only members of the same group are listed, and only while it is their selected
 * group and they share their position (services/location.ts).
 */
import type { FastifyInstance } from 'fastify'
import { locationSetting, locationsOfCallersGroup, reportLocation, saveLocationSetting } from '../services/location'
import { shareLocationFields } from '../schemas/user'
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

  // Whether the caller's position goes to their team (settings); off takes the last one back.
  sessionCall('/api/user/location/setting/get', noFields, async (_input, caller) => locationSetting(db.kysely, caller))

  sessionCall('/api/user/location/setting', shareLocationFields, async ({ share }, caller) => saveLocationSetting(db, caller, share, clock.now()))
}
