/**
 * /api/user/location/save and /api/user/location/getbygroupid (SPEC 7): a user reports their
 * position; the members of the caller's map see each other's last positions (issue 4 toggles them
 * on the map). Only members of the same group are listed.
 */
import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import type { MemberLocation } from '../../../types/entities'
import { MAP_ENGINE_MSG } from '../../../src/domain/messages'
import { locationsOfGroup, saveLocation } from '../db/locations'
import { mapCaller } from '../services/permissions'
import { callDefiners, type AppDeps } from './define'
import { noFields } from '../schemas/common'

const ADDR_MAX = 200

const locationSave = z.object({
  lng: z.number({ required_error: MAP_ENGINE_MSG.locationInvalid, invalid_type_error: MAP_ENGINE_MSG.locationInvalid }).finite().min(-180, MAP_ENGINE_MSG.locationInvalid).max(180, MAP_ENGINE_MSG.locationInvalid),
  lat: z.number({ required_error: MAP_ENGINE_MSG.locationInvalid, invalid_type_error: MAP_ENGINE_MSG.locationInvalid }).finite().min(-90, MAP_ENGINE_MSG.locationInvalid).max(90, MAP_ENGINE_MSG.locationInvalid),
  addr: z.string().trim().max(ADDR_MAX).optional(),
})

export function locationRoutes(app: FastifyInstance, deps: AppDeps): void {
  const { db, clock } = deps
  const { sessionCall } = callDefiners(app, deps)

  sessionCall('/api/user/location/save', locationSave, async ({ lng, lat, addr }, caller) => {
    await saveLocation(db.kysely, { user_id: caller.userId, lng, lat, addr: addr ?? '', at: clock.now().toISOString() })
    return null
  })

  sessionCall('/api/user/location/getbygroupid', noFields, async (_input, caller): Promise<MemberLocation[]> => {
    const who = await mapCaller(db.kysely, caller)
    const rows = await locationsOfGroup(db.kysely, who.groupId)
    return rows.map((r) => ({ user: { id: r.user_id, nickname: r.nickname, avatar: r.avatar }, time: r.at, lng: Number(r.lng), lat: Number(r.lat), addr: r.addr }))
  })
}
