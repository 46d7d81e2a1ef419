/** Zod of /api/user/location/*: a reported position. */
import { z } from 'zod'
import { MAP_ENGINE_MSG } from '../../../src/domain/messages'

const ADDR_MAX = 200

export const locationSave = z.object({
  lng: z
    .number({ required_error: MAP_ENGINE_MSG.locationInvalid, invalid_type_error: MAP_ENGINE_MSG.locationInvalid })
    .finite()
    .min(-180, MAP_ENGINE_MSG.locationInvalid)
    .max(180, MAP_ENGINE_MSG.locationInvalid),
  lat: z
    .number({ required_error: MAP_ENGINE_MSG.locationInvalid, invalid_type_error: MAP_ENGINE_MSG.locationInvalid })
    .finite()
    .min(-90, MAP_ENGINE_MSG.locationInvalid)
    .max(90, MAP_ENGINE_MSG.locationInvalid),
  addr: z.string().trim().max(ADDR_MAX).optional(),
})
