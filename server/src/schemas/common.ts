/**
 * Zod shared by the API areas: ids, id lists and page numbers. An id is what the id columns hold: they are
 * integer (serial on PostgreSQL, 32 bits; no id column is bigint), so anything above 2^31 - 1 is
 * refused here as a validation error. Unbounded, a number such as 1e308 (an integer to JavaScript)
 * reached PostgreSQL, which refuses it with an error, answered as a 500.
 */
import { z } from 'zod'
import { MSG } from '../../../src/domain/messages'

/** The largest value of an integer id column. */
export const ID_MAX = 2_147_483_647

/** A row id: a positive integer an id column holds; `message` when it is missing or anything else. */
export function idField(message: string = MSG.badRequest) {
  return z.number({ required_error: message, invalid_type_error: message }).int(message).positive(message).max(ID_MAX, message)
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
  const list = z.array(idField()).min(options.min ?? 0).max(max)
  return options.keepDuplicates ? list : list.transform((ids) => [...new Set(ids)])
}

/**
 * A 1-based page number (DESIGN 9), 1 when not given. Bounded like an id so that the row offset it
 * makes stays an integer both databases take (a page beyond the rows is simply empty).
 */
export function pageIndexField() {
  return z.number().int().min(1).max(ID_MAX).default(1)
}
