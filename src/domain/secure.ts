/**
 * Local user data is encrypted with a fixed symmetric key embedded in the client (SPEC 9).
 * This keeps casual readers of the device storage out; it is not a secret from the app itself.
 */
import AES from 'crypto-js/aes'
import Utf8 from 'crypto-js/enc-utf8'

export const LOCAL_DATA_KEY = 'tm-7f3c9a1e5b2d4086'

export function encryptJson(value: unknown, key: string = LOCAL_DATA_KEY): string {
  return AES.encrypt(JSON.stringify(value), key).toString()
}

/** Returns null for anything that does not decrypt to JSON (tampered, old format, wrong key). */
export function decryptJson<T>(cipher: string | null | undefined, key: string = LOCAL_DATA_KEY): T | null {
  if (!cipher) return null
  try {
    const text = AES.decrypt(cipher, key).toString(Utf8)
    return text ? (JSON.parse(text) as T) : null
  } catch {
    return null
  }
}
