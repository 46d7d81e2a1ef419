/** Zod of the envelope calls of /api/pay/* (routes/pay.ts); the rules are services/pay/orders.ts's. */
import { z } from 'zod'
import { MSG } from '../../../src/domain/messages'
import { orderIdField, orderidFields } from './vip'

export const iapFields = z.object({
  orderid: orderIdField,
  transaction_id: z.string({ required_error: MSG.badRequest }).trim().min(1, MSG.badRequest).max(128),
  receipt: z.string().max(200_000).optional(),
})

export const sandboxCompleteFields = orderidFields
