/**
 * Export files the server writes, text and binary: the text formats of index.ts, GPX, and the
 * zipped ones (KMZ: the KML as doc.kml, as Google Earth and 奥维 read it; an Excel workbook of
 * the same table as the CSV, numbers as numbers). Binary content goes as base64, as ExportFile
 * says. Server-side (Node's Buffer); the app only saves what comes back.
 */
import JSZip from 'jszip'
import writeXlsxFile from 'write-excel-file/node'
import type { ExportFile, ExportFormat } from '../../../types/mapdata'
import { exportFileName, FORMAT_FILES, IMPORT_FORMATS, serializeFile } from './index'
import { markerTable, safeTable } from './csv'
import { serializeGpx } from './gpxWrite'
import { serializeKml } from './kml'
import type { ExportMarker, ExportOptions } from './rows'

export async function exportFile(format: ExportFormat, layerName: string, markers: ExportMarker[], options: ExportOptions = {}): Promise<ExportFile> {
  const file = { filename: exportFileName(layerName, format), mime: FORMAT_FILES[format].mime }
  if ((IMPORT_FORMATS as readonly string[]).includes(format)) return { ...file, content: serializeFile(format as (typeof IMPORT_FORMATS)[number], markers, options) }
  switch (format) {
    case 'gpx':
      return { ...file, content: serializeGpx(markers, options) }
    case 'kmz': {
      const zip = new JSZip()
      zip.file('doc.kml', serializeKml(markers, options))
      return { ...file, content: await zip.generateAsync({ type: 'base64', compression: 'DEFLATE' }), encoding: 'base64' }
    }
    default: {
      // Neutralised as in the CSV, so that the table reads the same in either file and a copied cell stays text.
      const { header, rows } = safeTable(markerTable(markers, options))
      const sheet = [header.map((value) => ({ value, fontWeight: 'bold' as const })), ...rows.map((row) => row.map((value) => ({ value })))]
      const bytes = await writeXlsxFile(sheet, { sheet: options.title?.slice(0, 31) || 'Sheet1' }).toBuffer()
      return { ...file, content: bytes.toString('base64'), encoding: 'base64' }
    }
  }
}
