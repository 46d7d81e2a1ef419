/**
 * The text of an import file from its bytes. Phones and browsers hand files over as they are
 * stored: Excel and WPS on Chinese Windows save CSV as GBK (GB18030 is its superset, so one
 * decoder reads both), Notepad and some exporters write UTF-16, everything else is UTF-8 with or
 * without a BOM. Decoded with iconv-lite, on the server only (the parse worker): the client sends
 * the bytes, since a browser reading GBK as UTF-8 has already lost the text.
 */
import iconv from 'iconv-lite'

export type TextEncoding = 'utf8' | 'utf16le' | 'utf16be' | 'gb18030'

/** How many leading bytes the UTF-16 guess looks at (enough lines of any header). */
const SNIFF_BYTES = 4096

/** The encoding of a file: its BOM, else UTF-16 from its zero bytes, else UTF-8 when it is valid UTF-8, else GB18030. */
export function detectEncoding(bytes: Uint8Array): TextEncoding {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return 'utf8'
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf16le'
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf16be'
  const sniff = bytes.subarray(0, Math.min(bytes.length, SNIFF_BYTES) & ~1)
  // Text files hold ASCII (digits, commas, tags) whose UTF-16 form has a zero byte on one side.
  let evenZeros = 0
  let oddZeros = 0
  for (let i = 0; i < sniff.length; i += 2) {
    if (sniff[i] === 0) evenZeros++
    if (sniff[i + 1] === 0) oddZeros++
  }
  const pairs = sniff.length / 2
  if (pairs > 0 && oddZeros > pairs / 4 && evenZeros === 0) return 'utf16le'
  if (pairs > 0 && evenZeros > pairs / 4 && oddZeros === 0) return 'utf16be'
  return isUtf8(bytes) ? 'utf8' : 'gb18030'
}

/** The file's text, without a BOM. */
export function decodeText(bytes: Uint8Array): string {
  const encoding = detectEncoding(bytes)
  return iconv.decode(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), encoding, { stripBOM: true })
}

/** Whether the bytes are well-formed UTF-8 (a GBK file almost never is past its first Chinese character). */
function isUtf8(bytes: Uint8Array): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes)
    return true
  } catch {
    return false
  }
}
