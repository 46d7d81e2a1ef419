/** Zod of /api/system/*: verification codes, the system config and the operator's saving of it. */
import { z } from 'zod'
import { FILE_URL_MSG, SYSTEM_CONFIG_MSG } from '../../../src/domain/systemMessages'
import { checkBrand, checkLogo, checkServicePhone, checkServiceUrl, checkSignRadius } from '../../../src/domain/systemConfig'
import { codeField, phoneField } from './common'

/** A trimmed string that must pass `check`; anything but a string gets `invalid`. */
function checked(check: (value: string) => string | null, invalid: string) {
  return z
    .string({ invalid_type_error: invalid })
    .trim()
    .superRefine((value, ctx) => {
      const message = check(value)
      if (message) ctx.addIssue({ code: z.ZodIssueCode.custom, message })
    })
}

const switchField = (name: string) => z.boolean({ invalid_type_error: SYSTEM_CONFIG_MSG.switchInvalid(name) })

/** What the operator may change; every field optional, only those given change (`id` is ignored). */
export const configSave = z
  .object({
    id: z.unknown().optional(),
    logo: checked(checkLogo, FILE_URL_MSG.logo).optional(),
    brand: checked(checkBrand, SYSTEM_CONFIG_MSG.brandRequired).optional(),
    show_phone: switchField('显示手机号').optional(),
    sign_radius: z
      .unknown()
      .superRefine((value, ctx) => {
        const message = checkSignRadius(value)
        if (message) ctx.addIssue({ code: z.ZodIssueCode.custom, message })
      })
      .transform((value) => value as number | undefined)
      .optional(),
    show_marker_cluster_count: switchField('显示聚合数量').optional(),
    service_phone: checked(checkServicePhone, SYSTEM_CONFIG_MSG.servicePhoneInvalid).optional(),
    service_url: checked(checkServiceUrl, SYSTEM_CONFIG_MSG.serviceUrlInvalid).optional(),
  })
  .transform(({ id: _id, ...patch }) => patch)
  .refine((patch) => Object.values(patch).some((v) => v !== undefined), SYSTEM_CONFIG_MSG.nothingToSave)

export const sendCodeFields = z.object({ phone: phoneField })

export const checkCodeFields = z.object({ phone: phoneField, code: codeField })

export const getConfigFields = z.object({ no_check_permission: z.boolean().optional() })
