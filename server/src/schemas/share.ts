/** Zod of /api/share/* and the two public data calls of a share (routes/share.ts); the rules are services/shares.ts's. */
import { z } from 'zod'
import type { ShareKind } from '../../../types/share'
import { MARKER_PAGE_SIZE, SHARE_NAME_MAX, SHARE_PWD_MAX } from '../../../src/domain/constants'
import { MAP_MSG, MSG } from '../../../src/domain/messages'
import { SHARE_MSG } from '../../../src/domain/shareMessages'
import { SHARE_MASK_ALL, defaultShareMask } from '../../../src/domain/share'
import { idField, idListField, markerPageFormatField, pageIndexField } from './common'

/** Most ids one share may hold (a page of markers). */
const SHARE_DATA_MAX = MARKER_PAGE_SIZE
/** Shares per page of the management list. */
const SHARE_LIST_PAGE_MAX = 100

/** A share's id and the password proof of /api/share/check/pwd, as every call that opens a share takes them. */
export const shareIdField = z.string().trim().min(1).max(200)
export const proofField = z.string().max(500).nullish()

const kindField = z.union([z.literal(1), z.literal(2), z.literal(3)], { errorMap: () => ({ message: SHARE_MSG.typeInvalid }) }).transform((t) => t as ShareKind)

const maskField = z
  .number({ invalid_type_error: SHARE_MSG.maskInvalid })
  .int(SHARE_MSG.maskInvalid)
  .min(0, SHARE_MSG.maskInvalid)
  .refine((mask) => (mask & ~SHARE_MASK_ALL) === 0, SHARE_MSG.maskInvalid)

const styleMessage = { errorMap: () => ({ message: SHARE_MSG.styleInvalid }) }
const flag = z.boolean(styleMessage)
const mapStyleField = z.object({ type: z.number(styleMessage).int().min(0).max(99), bg: flag, road: flag, building: flag, poi: flag, traffic: flag }, styleMessage)

const dataIdsField = z
  .array(idField(MSG.shareDataRequired), { required_error: MSG.shareDataRequired, invalid_type_error: MSG.shareDataRequired })
  .max(SHARE_DATA_MAX, MSG.badRequest)
  .transform((ids) => [...new Set(ids)])

export const saveFields = z
  .object({
    name: z.string({ required_error: MSG.shareNameRequired, invalid_type_error: MSG.shareNameRequired }).max(200, SHARE_MSG.nameTooLong(SHARE_NAME_MAX)),
    type: kindField,
    show_btn: maskField.optional(),
    need_pwd: z.boolean({ invalid_type_error: MSG.badRequest }).default(false),
    pwd: z.string({ invalid_type_error: MSG.sharePwdRequired }).max(100, SHARE_MSG.pwdTooLong(SHARE_PWD_MAX)).optional(),
    exp: z.string({ invalid_type_error: SHARE_MSG.expInvalid }).max(20, SHARE_MSG.expInvalid).nullish(),
    data_ids: dataIdsField,
    style: mapStyleField.nullish(),
  })
  // Without a mask the kind's default (SPEC 9: 60, a route 172).
  .transform((v) => ({ ...v, show_btn: v.show_btn ?? defaultShareMask(v.type) }))

export const listFields = z.object({
  op_userid: idField().optional(),
  type: kindField.optional(),
  pageindex: pageIndexField(),
  pagesize: z.number().int().min(1).max(SHARE_LIST_PAGE_MAX, MAP_MSG.pageSizeTooLarge(SHARE_LIST_PAGE_MAX)).default(20),
})

const narrowIds = idListField(10_000)

export const layerShareFields = z.object({ share_id: shareIdField, layer_ids: narrowIds.optional(), proof: proofField })

export const markerShareFields = z.object({
  share_id: shareIdField,
  marker_ids: narrowIds.optional(),
  layer_ids: narrowIds.optional(),
  pageindex: pageIndexField(),
  pagesize: z.number().int().min(1).max(MARKER_PAGE_SIZE, MAP_MSG.pageSizeTooLarge(MARKER_PAGE_SIZE)).default(MARKER_PAGE_SIZE),
  proof: proofField,
  format: markerPageFormatField,
})

export const idFields = z.object({ id: shareIdField })

export const pwdFields = z.object({
  id: shareIdField,
  pwd: z.string({ required_error: MSG.sharePwdRequired, invalid_type_error: MSG.sharePwdRequired }).trim().min(1, MSG.sharePwdRequired).max(100, SHARE_MSG.pwdWrong),
})
