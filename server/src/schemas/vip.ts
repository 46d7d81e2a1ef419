/**
 * Zod of /api/vip/* and the questionnaire and enterprise profile calls under /api/user/*
 * (routes/vip.ts). A price field in a request is not part of any schema here and is dropped unread.
 */
import { z } from 'zod'
import { MSG } from '../../../src/domain/messages'
import { VIP_MSG } from '../../../src/domain/vipMessages'
import { idField, pageIndexField } from './common'

const productIdField = z.number({ required_error: VIP_MSG.productRequired, invalid_type_error: VIP_MSG.productRequired }).int(VIP_MSG.productRequired)
export const orderIdField = idField(VIP_MSG.orderNotFound)
const discountCodeField = z
  .string({ required_error: VIP_MSG.discountCodeRequired, invalid_type_error: VIP_MSG.discountCodeRequired })
  .trim()
  .min(1, VIP_MSG.discountCodeRequired)
  .max(64, VIP_MSG.discountInvalid)

/** The questionnaire's fields, loosely typed: src/domain/vip checkEnterprise gives SPEC 5's messages. */
const looseText = z.string({ invalid_type_error: MSG.badRequest }).max(2000, MSG.badRequest).optional().default('')
export const enterpriseFields = z.object({
  name: looseText,
  business_type: looseText,
  // Anything but an option value gets '请输入企业规模' from checkEnterprise.
  size: z.unknown().optional(),
  contacts: looseText,
  post: looseText,
  qa: z
    .array(z.string({ invalid_type_error: MSG.badRequest }).max(2000, MSG.badRequest))
    .max(3, MSG.badRequest)
    .optional()
    .default([]),
})

export type EnterpriseInput = z.output<typeof enterpriseFields>

export const discountCheckFields = z.object({ code: discountCodeField, product_id: productIdField.optional() })

export const orderAddFields = z.object({ product_id: productIdField, discount_code: z.string({ invalid_type_error: VIP_MSG.discountInvalid }).max(64, VIP_MSG.discountInvalid).optional() })

export const getlist = z.object({
  pageindex: pageIndexField(),
  pagesize: z.number().int().min(1).max(100).default(20),
  status: z.union([z.literal(0), z.literal(1), z.literal(2), z.literal(3)]).optional(),
})

export const orderFields = z.object({ id: orderIdField })

export const orderidFields = z.object({ orderid: orderIdField })

export const wxpayCreate = z.object({ orderid: orderIdField, code: z.string().max(256).optional(), openid: z.string().max(128).optional() })

export const recovery = z.object({ remarks: z.string({ required_error: VIP_MSG.resetRemarkRequired, invalid_type_error: VIP_MSG.resetRemarkRequired }) })
