/** Zod fields shared by the notes, fields, title style, icon, log and import/export calls. */
import { z } from 'zod'
import { MAP_IO_MSG } from '../../../src/domain/messages'

/** An uploaded file's URL (/files/...) or an absolute http(s) URL; never javascript: or data:. */
export const fileUrlField = z
  .string()
  .trim()
  .max(500)
  .regex(/^(\/files\/[^\s]+|https?:\/\/[^\s]+)$/)

export const photoUrlsField = (max: number) => z.array(fileUrlField).max(max)

/** '#RRGGBB' (or with alpha '#RRGGBBAA'), stored upper-case. */
export const colorField = z
  .string({ invalid_type_error: MAP_IO_MSG.colorInvalid })
  .trim()
  .regex(/^#([0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/, MAP_IO_MSG.colorInvalid)
  .transform((c) => c.toUpperCase())
