/**
 * Rules of the system config the operator saves (/api/system/save/config) and of the customer
 * service contact read at start-up (SERVICE_PHONE / SERVICE_URL). Each check returns a message or null.
 */
import { charLength } from './validate'
import { isHttpsUrl, isLogoUrl } from './fileUrl'
import { FILE_URL_MSG, SYSTEM_CONFIG_MSG } from './systemMessages'

/** Check-in radius in metres: below 10 GPS noise alone fails people on the spot, above 5 km it checks nothing. */
export const SIGN_RADIUS_MIN = 10
export const SIGN_RADIUS_MAX = 5000
/** The brand shows in a title bar. */
export const BRAND_MAX = 20
/** '400-800-1234', '010-12345678', '13800138000': digits in groups joined by single dashes. */
const SERVICE_PHONE = /^\d+(-\d+)*$/
const SERVICE_PHONE_DIGITS_MAX = 20

export function checkBrand(brand: string): string | null {
  const b = brand.trim()
  if (!b) return SYSTEM_CONFIG_MSG.brandRequired
  if (charLength(b) > BRAND_MAX) return SYSTEM_CONFIG_MSG.brandTooLong(BRAND_MAX)
  return null
}

/** '' removes the logo. */
export function checkLogo(logo: string): string | null {
  return logo === '' || isLogoUrl(logo) ? null : FILE_URL_MSG.logo
}

export function checkSignRadius(radius: unknown): string | null {
  return typeof radius === 'number' && Number.isInteger(radius) && radius >= SIGN_RADIUS_MIN && radius <= SIGN_RADIUS_MAX ? null : SYSTEM_CONFIG_MSG.signRadiusRange(SIGN_RADIUS_MIN, SIGN_RADIUS_MAX)
}

/** '' removes it. */
export function checkServicePhone(phone: string): string | null {
  if (phone === '') return null
  return SERVICE_PHONE.test(phone) && phone.replace(/-/g, '').length <= SERVICE_PHONE_DIGITS_MAX ? null : SYSTEM_CONFIG_MSG.servicePhoneInvalid
}

/** '' removes it; otherwise https only (the app opens it and shows it as a QR code). */
export function checkServiceUrl(url: string): string | null {
  return url === '' || isHttpsUrl(url) ? null : SYSTEM_CONFIG_MSG.serviceUrlInvalid
}
