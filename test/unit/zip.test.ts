/** Zips measured while they inflate (src/domain/formats/zip.ts): caps on the total and on the ratio, stopping at the cap. */
import { unzipSync } from 'fflate'
import { readImportFile } from '../../src/domain/formats/read'
import { IMPORT_MSG } from '../../src/domain/importMessages'
import { repackZip, ZIP_MAX_RATIO, ZipBudget, zipEntries, ZipTooLarge, ZipUnreadable } from '../../src/domain/formats/zip'
import { bombEntry, kmzBomb, shpBomb, textEntry, xlsxBomb, zipOf, type RawEntry } from '../support/zipBombs'

const MIB = 1024 * 1024
const kml = '<?xml version="1.0"?><kml><Document><Placemark><name>井</name><Point><coordinates>116.4,39.9</coordinates></Point></Placemark></Document></kml>'

describe('ZipBudget', () => {
  it('inflates a plain entry whole', () => {
    const zip = zipOf([textEntry('doc.kml', kml)])
    const [entry] = zipEntries(zip)
    expect(Buffer.from(new ZipBudget().inflate(zip, entry)).toString()).toBe(kml)
  })

  it('stops an entry inflating past the ratio cap at a few MB, not at its declared or real size', () => {
    const zip = zipOf([bombEntry('doc.kml', 1536)])
    const [entry] = zipEntries(zip)
    const before = process.memoryUsage().arrayBuffers
    expect(() => new ZipBudget().inflate(zip, entry)).toThrow(ZipTooLarge)
    // Held while inflating: a few steps' output (4 KB of zeros is ~4 MB), never the 1.5 GB.
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(64 * MIB)
  })

  it('stops at the total across entries, whatever each declares', () => {
    // Text that compresses less than ZIP_MAX_RATIO times, 3 MiB an entry, under a 5 MiB budget.
    const text = Array.from({ length: (3 * MIB) / 16 }, (_, i) => `${(i * 7919) % 100000}`.padStart(16, '.')).join('')
    const entries = ['a.xml', 'b.xml'].map((name) => ({ ...textEntry(name, text), size: 10 }))
    const zip = zipOf(entries)
    const budget = new ZipBudget(5 * MIB)
    const [a, b] = zipEntries(zip)
    expect(budget.inflate(zip, a).length).toBe(text.length)
    expect(() => budget.inflate(zip, b)).toThrow(ZipTooLarge)
    expect(entries[0].data.length * ZIP_MAX_RATIO).toBeGreaterThan(text.length)
  })

  it('counts entries that share one stream of compressed bytes once each', () => {
    // A central directory naming the same 3 MiB stream three times, under a 5 MiB budget.
    const shared: RawEntry = textEntry('a.xml', Array.from({ length: (3 * MIB) / 16 }, (_, i) => `${(i * 7919) % 100000}`.padStart(16, '.')).join(''))
    const zip = zipOf([shared], [shared, { ...shared, name: 'b.xml' }, { ...shared, name: 'c.xml' }])
    const entries = zipEntries(zip)
    expect(new Set(entries.map((e) => e.dataStart)).size).toBe(1)
    const budget = new ZipBudget(5 * MIB)
    budget.inflate(zip, entries[0])
    expect(() => budget.inflate(zip, entries[1])).toThrow(ZipTooLarge)
  })

  it('refuses what is not a readable zip', () => {
    expect(() => zipEntries(new TextEncoder().encode('名称,经度,纬度'))).toThrow(ZipUnreadable)
  })
})

describe('repackZip', () => {
  it('keeps the chosen entries, uncompressed, byte for byte', () => {
    const zip = zipOf([textEntry('xl/worksheets/sheet1.xml', '<sheet/>'), textEntry('xl/media/image1.png', 'png')])
    const back = unzipSync(repackZip(zip, (name) => name.endsWith('.xml')))
    expect(Object.keys(back)).toEqual(['xl/worksheets/sheet1.xml'])
    expect(Buffer.from(back['xl/worksheets/sheet1.xml']).toString()).toBe('<sheet/>')
  })
})

describe('an import file that inflates to 1.5 GB', () => {
  it.each([
    ['kmz', kmzBomb],
    ['xlsx', xlsxBomb],
    ['shp', shpBomb],
  ] as const)('as %s is refused with its message', async (format, bomb) => {
    const parsed = await readImportFile(format, { bytes: new Uint8Array(bomb(1536)) })
    expect(parsed).toEqual({ rows: [], errors: [{ row: 0, message: IMPORT_MSG.zipTooLarge }] })
  })
})
