/**
 * Excel workbooks (.xlsx, as Excel, WPS and 腾讯文档 save them): the first sheet, read as a CSV file
 * is, with the same columns (名称/经度/纬度, name/lng/lat or a WKT column) and row numbers as the
 * spreadsheet shows them. Read by read-excel-file, a small maintained reader of the xlsx format
 * alone. The older binary .xls (an OLE file, not a zip) is answered with what to do instead.
 */
import { readSheet } from 'read-excel-file/node'
import type { FileCrs } from '../../../types/mapdata'
import { IMPORT_MSG } from '../importMessages'
import { parseTable, unsafeCell } from './csv'
import { unreadable, type AddressPlaces, type ParsedFile } from './rows'
import { repackZip, ZipTooLarge } from './zip'

/** The first bytes of an OLE compound file: Excel 97-2003's .xls. */
const OLE_MAGIC = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]

export async function parseXlsx(bytes: Uint8Array, crs: FileCrs = 'wgs84', maxRows = Infinity, places?: AddressPlaces): Promise<ParsedFile> {
  if (OLE_MAGIC.every((b, i) => bytes[i] === b)) return unreadable(IMPORT_MSG.xlsOld)
  let rows: unknown[][]
  try {
    // The sheet's XML only (what read-excel-file reads), measured while it inflates (zip.ts).
    const checked = repackZip(bytes, (name) => /\.(xml|rels)$/i.test(name))
    rows = (await readSheet(Buffer.from(checked.buffer, checked.byteOffset, checked.byteLength))) as unknown[][]
  } catch (err) {
    return unreadable(err instanceof ZipTooLarge ? IMPORT_MSG.zipTooLarge : undefined)
  }
  return parseTable(
    rows.map((row) => row.map(cellText)),
    crs,
    maxRows,
    unsafeCell,
    places,
  )
}

/** A cell as the spreadsheet shows it: numbers in full, dates as ISO dates, booleans as 是/否. */
function cellText(value: unknown): string {
  if (value === null || value === undefined) return ''
  if (value instanceof Date)
    return value
      .toISOString()
      .slice(0, value.getUTCHours() || value.getUTCMinutes() ? 16 : 10)
      .replace('T', ' ')
  if (typeof value === 'boolean') return value ? '是' : '否'
  return String(value)
}
