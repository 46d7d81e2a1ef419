/** Zod of /api/module/*: which catalogue is asked for. */
import { z } from 'zod'
import { TEAM_MSG } from '../../../src/domain/messages'

const moduleTypeField = z.union([z.literal(1), z.literal(2)], { errorMap: () => ({ message: TEAM_MSG.moduleTypeInvalid }) })

export const moduleListFields = z.object({ type: moduleTypeField })
