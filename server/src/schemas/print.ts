/** Zod of /api/print/* (routes/print.ts); the rules are services/print.ts's and src/domain/print.ts's. */
import { z } from 'zod'
import { MSG } from '../../../src/domain/messages'
import { PRINT_NOTE_MAX, PRINT_TITLE_MAX } from '../../../src/domain/print'
import { PRINT_MSG } from '../../../src/domain/printMessages'
import { idField } from './common'
import { proofField, shareIdField } from './share'

const flag = z.boolean({ invalid_type_error: MSG.badRequest })
const coordinate = z.number({ invalid_type_error: PRINT_MSG.viewInvalid }).finite(PRINT_MSG.viewInvalid)

const optionsField = z.object(
  {
    paper: z.enum(['A4', 'A3'], { errorMap: () => ({ message: MSG.badRequest }) }),
    orientation: z.enum(['portrait', 'landscape'], { errorMap: () => ({ message: MSG.badRequest }) }),
    quality: z.enum(['standard', 'hd'], { errorMap: () => ({ message: MSG.badRequest }) }),
    title: z.string({ invalid_type_error: MSG.badRequest }).max(PRINT_TITLE_MAX, PRINT_MSG.titleTooLong(PRINT_TITLE_MAX)).default(''),
    note: z.string({ invalid_type_error: MSG.badRequest }).max(PRINT_NOTE_MAX, PRINT_MSG.noteTooLong(PRINT_NOTE_MAX)).default(''),
    legend: flag,
    scale_bar: flag,
    north_arrow: flag,
    titles: flag,
    footer: flag,
    basemap: flag,
  },
  { required_error: MSG.badRequest, invalid_type_error: MSG.badRequest },
)

export const startFields = z.object({
  layer_ids: z.array(idField(), { invalid_type_error: MSG.badRequest }).max(1000, MSG.badRequest).default([]),
  view: z.object({ west: coordinate, south: coordinate, east: coordinate, north: coordinate }).nullish(),
  route_id: idField().nullish(),
  task_id: idField().nullish(),
  options: optionsField,
  format: z.enum(['png', 'pdf'], { errorMap: () => ({ message: MSG.badRequest }) }).default('png'),
  preview: z.boolean().optional(),
})

export const progressFields = z.object({
  job_id: z.string({ required_error: PRINT_MSG.jobNotFound, invalid_type_error: PRINT_MSG.jobNotFound }).regex(/^[A-Za-z0-9_-]{10,64}$/, PRINT_MSG.jobNotFound),
})

export const shareStartFields = z.object({
  share_id: shareIdField,
  proof: proofField,
  layer_ids: z.array(idField(), { invalid_type_error: MSG.badRequest }).max(1000, MSG.badRequest).optional(),
  view: z.object({ west: coordinate, south: coordinate, east: coordinate, north: coordinate }).nullish(),
  options: optionsField,
  format: z.enum(['png', 'pdf'], { errorMap: () => ({ message: MSG.badRequest }) }).default('png'),
  preview: z.boolean().optional(),
})
