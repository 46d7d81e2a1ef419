/** Zod fields shared by the notes, fields, title style, icon, log and import/export calls. */
import { z } from 'zod'
import { isOwnFileUrl } from '../../../src/domain/fileUrl'
import { MAP_IO_MSG } from '../../../src/domain/messages'
import { FILE_URL_MSG } from '../../../src/domain/systemMessages'

/** An uploaded file's URL exactly as /api/system/upload gives it (src/domain/fileUrl.ts). */
export const fileUrlField = (message: string) =>
  z.string({ invalid_type_error: message }).trim().refine(isOwnFileUrl, message)

export const photoUrlsField = (max: number) => z.array(fileUrlField(FILE_URL_MSG.photo)).max(max)

/** '#RRGGBB' (or with alpha '#RRGGBBAA'), stored upper-case. */
export const colorField = z
  .string({ invalid_type_error: MAP_IO_MSG.colorInvalid })
  .trim()
  .regex(/^#([0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/, MAP_IO_MSG.colorInvalid)
  .transform((c) => c.toUpperCase())
