/** Zod of /api/sync/*: the group's change log. */
import { z } from 'zod'
import { CHANGES_LIMIT_MAX } from '../services/sync'
import { idOrZeroField } from './common'

export const changesFields = z.object({
  since: idOrZeroField(),
  limit: z.number().int().min(1).max(CHANGES_LIMIT_MAX).default(CHANGES_LIMIT_MAX),
})
