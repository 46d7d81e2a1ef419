/**
 * Distribution (types/distribution.ts): the promotion code's form, the channel an
 * invitation records on first sign-in, the invitation and promotion-page paths, and the input rules
 * of /reg. Pure: the pages and the server share it.
 */
import { DIST_MSG } from './distributionMessages'
import { INVITE_CODE_ALPHABET } from './teams'
import { charLength, checkCode, checkPhone } from './validate'

/** Promotion codes: this many characters of the invite alphabet (no look-alikes), about 40 bits. */
export const DISTRIBUTION_CODE_LENGTH = 8
/** A distributor's name: 1 to 20 characters. */
export const DISTRIBUTOR_NAME_MAX = 20
/** The optional company or team name: at most 40 characters. */
export const DISTRIBUTOR_COMPANY_MAX = 40
/** The login channel of an invitation is this prefix and the code ('dist_<code>'). */
export const DISTRIBUTION_CHANNEL_PREFIX = 'dist_'
/** The download page of the installable app (served by the API server, not an app route). */
export const DOWNLOAD_PATH = '/download'

const CODE_RE = new RegExp(`^[${INVITE_CODE_ALPHABET}]{${DISTRIBUTION_CODE_LENGTH}}$`)

/** What a person typed or a link carried, as a code: trimmed and upper-cased. */
export function normalizeDistributionCode(input: string | null | undefined): string {
  return (input ?? '').trim().toUpperCase()
}

/** Whether a (normalised) code has the form of a promotion code. */
export function isDistributionCode(code: string): boolean {
  return CODE_RE.test(code)
}

/** A random promotion code; `pick(n)` answers a random integer in [0, n) (crypto on the server). */
export function randomDistributionCode(pick: (n: number) => number): string {
  let code = ''
  for (let i = 0; i < DISTRIBUTION_CODE_LENGTH; i++) code += INVITE_CODE_ALPHABET[pick(INVITE_CODE_ALPHABET.length)]
  return code
}

/** The channel /api/user/login records (users.source) for someone invited with this code. */
export function distributionChannel(code: string): string {
  return DISTRIBUTION_CHANNEL_PREFIX + code
}

/** The promotion code of an invitation channel, or null for any other channel. */
export function codeOfChannel(channel: string | null | undefined): string | null {
  const c = channel ?? ''
  if (!c.startsWith(DISTRIBUTION_CHANNEL_PREFIX)) return null
  const code = c.slice(DISTRIBUTION_CHANNEL_PREFIX.length)
  return isDistributionCode(code) ? code : null
}

/** Path and query of the invitation: the login page, which sends the channel on sign-in. */
export function invitePath(code: string): string {
  return `/login?channel=${encodeURIComponent(distributionChannel(code))}`
}

/** The absolute invitation link on this origin (what the QR code and the copy button carry). */
export function inviteUrl(origin: string, path: string): string {
  return `${origin.replace(/\/+$/, '')}${path}`
}

/**
 * The invitation link in two parts for display: the address, which may wrap anywhere, and the
 * channel with the promotion code after the last '=', which must stay whole on one line.
 */
export function inviteLinkParts(link: string): [string, string] {
  const at = link.lastIndexOf('=')
  return at < 0 ? [link, ''] : [link.slice(0, at + 1), link.slice(at + 1)]
}

/** The distributor's promotion page. */
export function distributionViewPath(code: string): string {
  return `/distribution/view?code=${encodeURIComponent(code)}`
}

export function checkDistributorName(name: string | null | undefined): string | null {
  const n = (name ?? '').trim()
  if (!n) return DIST_MSG.nameRequired
  if (charLength(n) > DISTRIBUTOR_NAME_MAX) return DIST_MSG.nameTooLong(DISTRIBUTOR_NAME_MAX)
  return null
}

export function checkDistributorCompany(company: string | null | undefined): string | null {
  return charLength((company ?? '').trim()) > DISTRIBUTOR_COMPANY_MAX ? DIST_MSG.companyTooLong(DISTRIBUTOR_COMPANY_MAX) : null
}

export interface RegistrationInput {
  name: string
  phone: string
  code: string
  company?: string
}

/** The first problem of a registration form in the order the page shows its fields, or null. */
export function checkRegistration(input: RegistrationInput): string | null {
  return checkDistributorName(input.name) ?? checkPhone(input.phone) ?? checkCode(input.code) ?? checkDistributorCompany(input.company)
}
