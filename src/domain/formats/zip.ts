/**
 * Zips as the server opens them (KMZ, an Excel workbook, a zipped Shapefile), measured while they
 * inflate: a few MB of compressed zeros can stand for gigabytes, so no entry is ever inflated whole
 * first. Entries are listed from the central directory (what JSZip, but-unzip and Excel read) and
 * each is inflated in small steps, stopping as soon as the archive's uncompressed total or an
 * entry's compression ratio passes its cap (ZipTooLarge). The sizes an archive declares are not
 * believed: only the bytes that come out count.
 *
 * Readers that inflate on their own (read-excel-file reads the local headers as a stream, shpjs
 * the central directory) get the checked entries repacked uncompressed (repackZip), so that they
 * read exactly what was measured.
 */
import { Inflate, zipSync } from 'fflate'

/** The most an archive may inflate to in all: far beyond any 10,000-row file, far below the parse worker's memory. */
export const ZIP_MAX_TOTAL_BYTES = 100 * 1024 * 1024
/** The most an entry may inflate to per compressed byte; text compresses 5-20 times, a bomb about 1000 times. */
export const ZIP_MAX_RATIO = 100
/** Below this an entry's ratio is not checked: a small file of repeated text can compress far better than 100 times. */
export const ZIP_RATIO_FREE_BYTES = 1024 * 1024
/** Compressed bytes pushed at a time: a step of zeros inflates to at most ~1000 times this before the caps are checked. */
const INFLATE_STEP = 4096

/** The archive inflates past ZIP_MAX_TOTAL_BYTES or one entry past ZIP_MAX_RATIO. */
export class ZipTooLarge extends Error {}
/** Not a zip we can read: damaged, encrypted, ZIP64, or a compression other than deflate. */
export class ZipUnreadable extends Error {}

export interface ZipEntry {
  name: string
  method: number
  compressedSize: number
  /** Where the entry's compressed bytes start. */
  dataStart: number
}

const EOCD = 0x06054b50
const CENTRAL = 0x02014b50
const LOCAL = 0x04034b50

/** The entries of the central directory, directories left out. */
export function zipEntries(bytes: Uint8Array): ZipEntry[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const u16 = (at: number) => view.getUint16(at, true)
  const u32 = (at: number) => view.getUint32(at, true)
  // The end record is in the last 22 bytes plus a comment of at most 64 KB.
  let eocd = -1
  for (let at = bytes.length - 22; at >= Math.max(0, bytes.length - 22 - 0xffff); at--) {
    if (u32(at) === EOCD) {
      eocd = at
      break
    }
  }
  if (eocd < 0) throw new ZipUnreadable('no end of central directory')
  const count = u16(eocd + 10)
  let at = u32(eocd + 16)
  const decoder = new TextDecoder()
  const entries: ZipEntry[] = []
  for (let i = 0; i < count; i++) {
    if (at + 46 > bytes.length || u32(at) !== CENTRAL) throw new ZipUnreadable('damaged central directory')
    const flags = u16(at + 8)
    const method = u16(at + 10)
    const compressedSize = u32(at + 20)
    const nameLength = u16(at + 28)
    const extraLength = u16(at + 30)
    const commentLength = u16(at + 32)
    const localAt = u32(at + 42)
    const name = decoder.decode(bytes.subarray(at + 46, at + 46 + nameLength))
    at += 46 + nameLength + extraLength + commentLength
    if (name.endsWith('/')) continue
    if (flags & 1) throw new ZipUnreadable('encrypted entry')
    if (compressedSize === 0xffffffff || localAt === 0xffffffff) throw new ZipUnreadable('ZIP64 entry')
    if (method !== 0 && method !== 8) throw new ZipUnreadable(`compression method ${method}`)
    if (localAt + 30 > bytes.length || u32(localAt) !== LOCAL) throw new ZipUnreadable('damaged local header')
    const dataStart = localAt + 30 + u16(localAt + 26) + u16(localAt + 28)
    if (dataStart + compressedSize > bytes.length) throw new ZipUnreadable('entry past the end of the file')
    entries.push({ name, method, compressedSize, dataStart })
  }
  return entries
}

/** What has come out of an archive so far, against its caps. */
export class ZipBudget {
  private total = 0
  constructor(private readonly maxTotal = ZIP_MAX_TOTAL_BYTES) {}

  /** The entry's bytes, inflated step by step; throws ZipTooLarge at the first step past a cap. */
  inflate(bytes: Uint8Array, entry: ZipEntry): Uint8Array {
    const data = bytes.subarray(entry.dataStart, entry.dataStart + entry.compressedSize)
    if (entry.method === 0) {
      this.count(data.length, data.length, data.length)
      return data
    }
    const chunks: Uint8Array[] = []
    let out = 0
    let pushed = 0
    const inflater = new Inflate((chunk) => {
      out += chunk.length
      this.count(chunk.length, out, pushed)
      chunks.push(chunk)
    })
    try {
      for (let at = 0; at < data.length; at += INFLATE_STEP) {
        const step = data.subarray(at, Math.min(data.length, at + INFLATE_STEP))
        pushed += step.length
        inflater.push(step, at + INFLATE_STEP >= data.length)
      }
    } catch (err) {
      if (err instanceof ZipTooLarge) throw err
      throw new ZipUnreadable(`damaged entry ${entry.name}`)
    }
    const whole = new Uint8Array(out)
    let offset = 0
    for (const chunk of chunks) {
      whole.set(chunk, offset)
      offset += chunk.length
    }
    return whole
  }

  private count(added: number, entryOut: number, entryIn: number): void {
    this.total += added
    if (this.total > this.maxTotal) throw new ZipTooLarge(`more than ${this.maxTotal} bytes uncompressed`)
    if (entryOut > ZIP_RATIO_FREE_BYTES && entryOut > ZIP_MAX_RATIO * Math.max(1, entryIn)) throw new ZipTooLarge(`an entry compressed more than ${ZIP_MAX_RATIO} times`)
  }
}

/**
 * The entries whose names `keep` accepts, inflated under one budget and packed again without
 * compression, for a reader that inflates by itself.
 */
export function repackZip(bytes: Uint8Array, keep: (name: string) => boolean): Uint8Array {
  const budget = new ZipBudget()
  const files: Record<string, [Uint8Array, { level: 0 }]> = Object.create(null)
  for (const entry of zipEntries(bytes)) {
    if (keep(entry.name) && !(entry.name in files)) files[entry.name] = [budget.inflate(bytes, entry), { level: 0 }]
  }
  return zipSync(files)
}
