/** Zod fields that apply the shared input rules of src/domain/validate.ts and their messages. */
import { z } from 'zod'
import { isOwnFileUrl } from '../../../src/domain/fileUrl'
import { MSG } from '../../../src/domain/messages'
import { FILE_URL_MSG } from '../../../src/domain/systemMessages'
import { checkCode, checkGroupName, checkNickname, checkPhone } from '../../../src/domain/validate'

/** A trimmed string that must pass `check`; a missing value gets `required`, a non-string `invalid`. */
function checkedString(check: (value: string) => string | null, required: string, invalid: string = MSG.badRequest) {
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
export const inviteCodeField = z
  .string({ required_error: MSG.inviteCodeRequired, invalid_type_error: MSG.inviteCodeRequired })
  .trim()
  .min(1, MSG.inviteCodeRequired)
  .max(256, MSG.inviteCodeInvalid)
/** An uploaded image (src/domain/fileUrl.ts), or '' for no avatar. */
export const avatarField = z
  .string({ invalid_type_error: FILE_URL_MSG.avatar })
  .trim()
  .refine((url) => url === '' || isOwnFileUrl(url), FILE_URL_MSG.avatar)
export const channelField = z.string().trim().max(64)

export const noFields = z.object({})
