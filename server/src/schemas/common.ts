/**
 * Zod shared by the API areas: ids, id lists, page numbers, and the fields several areas check alike
 * (phone, code, nickname, uploaded file URLs, colours). An id is what the id columns hold: they are
 * integer (serial on PostgreSQL, 32 bits; no id column is bigint), so anything above 2^31 - 1 is
 * refused here as a validation error. Unbounded, a number such as 1e308 (an integer to JavaScript)
 * reached PostgreSQL, which refuses it with an error, answered as a 500.
 */
import { z } from 'zod'
import { FILE_URL_MSG } from '../../../src/domain/systemMessages'
import { MAP_IO_MSG, MSG } from '../../../src/domain/messages'
import { checkCode, checkGroupName, checkNickname, checkPhone } from '../../../src/domain/validate'
import { isOwnFileUrl } from '../../../src/domain/fileUrl'
import { isClientId } from '../../../src/domain/clientId'
import { CLIENT_ID_MSG } from '../../../src/domain/clientIdMessages'

/** The largest value of an integer id column. */
export const ID_MAX = 2_147_483_647

/** A row id: a positive integer an id column holds; `message` when it is missing or anything else. */
export function idField(message: string = MSG.badRequest) {
  return z.number({ required_error: message, invalid_type_error: message }).int(message).positive(message).max(ID_MAX, message)
}

/** The rev a save or delete started from (types/sync.ts): optional; a stale one is refused with CONFLICT. */
export function revField() {
  return idOrZeroField().optional()
}

/** The id a phone gives a create it may send again (src/domain/clientId.ts): optional; a repeat answers the first one's entity. */
export function clientIdField() {
  return z.string({ invalid_type_error: CLIENT_ID_MSG.invalid }).refine(isClientId, CLIENT_ID_MSG.invalid).optional()
}

/** A reference where 0 means none (a folder or department at the root, no department), else an id. */
export function idOrZeroField(message: string = MSG.badRequest) {
  return z.number({ required_error: message, invalid_type_error: message }).int(message).min(0, message).max(ID_MAX, message)
}

/**
 * A JSON array of at most `max` ids (DESIGN 9), duplicates dropped; `min` when the call needs some.
 * `keepDuplicates` for a call that must see them (an order that names each item once).
 */
export function idListField(max: number, options: { min?: number; keepDuplicates?: boolean } = {}) {
  const list = z
    .array(idField())
    .min(options.min ?? 0)
    .max(max)
  return options.keepDuplicates ? list : list.transform((ids) => [...new Set(ids)])
}

/**
 * A 1-based page number (DESIGN 9), 1 when not given. Bounded like an id so that the row offset it
 * makes stays an integer both databases take (a page beyond the rows is simply empty).
 */
export function pageIndexField() {
  return z.number().int().min(1).max(ID_MAX).default(1)
}

// The shared input rules of src/domain/validate.ts and their messages.
/** A trimmed string that must pass `check`; a missing value gets `required`, a non-string `invalid`. */
/** How a page of markers travels (types/api.ts MarkerPageFormat): absent, the SPEC's {list, total}. */
export const markerPageFormatField = z.enum(['columns'], { errorMap: () => ({ message: MSG.badRequest }) }).optional()

export function checkedString(check: (value: string) => string | null, required: string, invalid: string = MSG.badRequest) {
  return z
    .string({ required_error: required, invalid_type_error: invalid })
    .trim()
    .superRefine((value, ctx) => {
      const message = check(value)
      if (message) ctx.addIssue({ code: z.ZodIssueCode.custom, message })
    })
}

export const phoneField = checkedString(checkPhone, MSG.phoneRequired, MSG.phoneInvalid)
export const codeField = checkedString(checkCode, MSG.codeRequired, MSG.codeInvalidFormat)
export const nicknameField = checkedString(checkNickname, MSG.nicknameRequired)
export const groupNameField = checkedString(checkGroupName, MSG.groupNameRequired)
export const inviteCodeField = z.string({ required_error: MSG.inviteCodeRequired, invalid_type_error: MSG.inviteCodeRequired }).trim().min(1, MSG.inviteCodeRequired).max(256, MSG.inviteCodeInvalid)
/** An uploaded image (src/domain/fileUrl.ts), or '' for no avatar. */
export const avatarField = z
  .string({ invalid_type_error: FILE_URL_MSG.avatar })
  .trim()
  .refine((url) => url === '' || isOwnFileUrl(url), FILE_URL_MSG.avatar)
export const channelField = z.string().trim().max(64)

export const noFields = z.object({})

// Map data: uploaded files and colours (notes, fields, title styles, icons, import/export).
/** An uploaded file's URL exactly as /api/system/upload gives it (src/domain/fileUrl.ts). */
export const fileUrlField = (message: string) => z.string({ invalid_type_error: message }).trim().refine(isOwnFileUrl, message)

export const photoUrlsField = (max: number) => z.array(fileUrlField(FILE_URL_MSG.photo)).max(max)

/** '#RRGGBB' (or with alpha '#RRGGBBAA'), stored upper-case. */
export const colorField = z
  .string({ invalid_type_error: MAP_IO_MSG.colorInvalid })
  .trim()
  .regex(/^#([0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/, MAP_IO_MSG.colorInvalid)
  .transform((c) => c.toUpperCase())
