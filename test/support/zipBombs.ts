/**
 * Zips built in the test, bombs among them, so that nothing big is committed: a deflate stream of
 * N MiB of one byte is N copies of one flushed MiB (each copy refers only to itself) and an empty
 * final block, about 1 KB per MiB; a 1.5 GiB entry is ~1.6 MB of zip.
 */
import zlib from 'node:zlib'

export interface RawEntry {
  name: string
  /** The entry's bytes as stored: deflated when method is 8. */
  data: Buffer
  method: 0 | 8
  /** The uncompressed size the headers declare. */
  size: number
}

const MIB = 1024 * 1024

/** A raw deflate stream that inflates to `mib` MiB of the byte `fill`. */
export function deflatedRepeat(mib: number, fill = 0x20): Buffer {
  const one = zlib.deflateRawSync(Buffer.alloc(MIB, fill), { level: 9, finishFlush: zlib.constants.Z_SYNC_FLUSH })
  return Buffer.concat([...Array.from({ length: mib }, () => one), zlib.deflateRawSync(Buffer.alloc(0))])
}

/** An entry that inflates to `mib` MiB of spaces. */
export function bombEntry(name: string, mib: number): RawEntry {
  return { name, data: deflatedRepeat(mib), method: 8, size: Math.min(mib * MIB, 0xfffffffe) }
}

/** An entry of the given text, deflated as any zip tool would. */
export function textEntry(name: string, text: string): RawEntry {
  const bytes = Buffer.from(text)
  return { name, data: zlib.deflateRawSync(bytes), method: 8, size: bytes.length }
}

/** A zip of the entries (CRCs left 0: the readers that matter here never get as far as checking them). */
export function zipOf(entries: RawEntry[], central: RawEntry[] = entries): Buffer {
  const locals: Buffer[] = []
  const offsets = new Map<RawEntry, number>()
  let at = 0
  for (const entry of entries) {
    const name = Buffer.from(entry.name)
    const head = Buffer.alloc(30)
    head.writeUInt32LE(0x04034b50, 0)
    head.writeUInt16LE(20, 4)
    head.writeUInt16LE(entry.method, 8)
    head.writeUInt32LE(entry.data.length, 18)
    head.writeUInt32LE(entry.size, 22)
    head.writeUInt16LE(name.length, 26)
    offsets.set(entry, at)
    locals.push(head, name, entry.data)
    at += head.length + name.length + entry.data.length
  }
  const dir: Buffer[] = []
  let dirSize = 0
  for (const entry of central) {
    const name = Buffer.from(entry.name)
    const head = Buffer.alloc(46)
    head.writeUInt32LE(0x02014b50, 0)
    head.writeUInt16LE(20, 4)
    head.writeUInt16LE(20, 6)
    head.writeUInt16LE(entry.method, 10)
    head.writeUInt32LE(entry.data.length, 20)
    head.writeUInt32LE(entry.size, 24)
    head.writeUInt16LE(name.length, 28)
    head.writeUInt32LE(offsets.get(entry) ?? 0, 42)
    dir.push(head, name)
    dirSize += head.length + name.length
  }
  const end = Buffer.alloc(22)
  end.writeUInt32LE(0x06054b50, 0)
  end.writeUInt16LE(central.length, 8)
  end.writeUInt16LE(central.length, 10)
  end.writeUInt32LE(dirSize, 12)
  end.writeUInt32LE(at, 16)
  return Buffer.concat([...locals, ...dir, end])
}

/** A KMZ whose doc.kml inflates to `mib` MiB. */
export const kmzBomb = (mib: number) => zipOf([bombEntry('doc.kml', mib)])

/** An Excel workbook whose first sheet inflates to `mib` MiB. */
export const xlsxBomb = (mib: number) =>
  zipOf([
    textEntry('[Content_Types].xml', '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>'),
    textEntry('xl/workbook.xml', '<?xml version="1.0" encoding="UTF-8"?><workbook><sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>'),
    bombEntry('xl/worksheets/sheet1.xml', mib),
  ])

/** A zipped Shapefile whose .dbf inflates to `mib` MiB. */
export const shpBomb = (mib: number) => zipOf([textEntry('points.shp', 'x'.repeat(100)), textEntry('points.prj', 'GEOGCS["WGS 84"]'), bombEntry('points.dbf', mib)])
