/** Device kind from a user agent (SPEC 2: desktop or unknown devices go to the warning page). */
export type DeviceKind = 'mobile' | 'desktop' | 'unknown'

const MOBILE = /Android|iPhone|iPad|iPod|HarmonyOS|OpenHarmony|Mobile|MicroMessenger|miniProgram/i
const DESKTOP = /Windows NT|Macintosh|Mac OS X|X11|Linux x86_64|CrOS/i

export function deviceKind(userAgent: string | undefined | null): DeviceKind {
  const ua = (userAgent ?? '').trim()
  if (!ua) return 'unknown'
  if (MOBILE.test(ua)) return 'mobile'
  if (DESKTOP.test(ua)) return 'desktop'
  return 'unknown'
}

/** The `os` field of the request header. */
export function osOf(userAgent: string | undefined | null): string {
  const ua = userAgent ?? ''
  if (/HarmonyOS|OpenHarmony/i.test(ua)) return 'harmony'
  if (/Android/i.test(ua)) return 'android'
  if (/iPhone|iPad|iPod/i.test(ua)) return 'ios'
  if (/Windows/i.test(ua)) return 'windows'
  if (/Macintosh|Mac OS X/i.test(ua)) return 'mac'
  if (/Linux/i.test(ua)) return 'linux'
  return 'unknown'
}
