/**
 * KMZ: a zip holding one KML document (doc.kml by convention, else the first .kml at the top, else
 * anywhere) and the icons and overlays it refers to. Only the KML is read: markers take the
 * layer's own icons, so the images inside are ignored.
 */
import { MAP_MSG } from '../messages'
import { IMPORT_MSG } from '../importMessages'
import { ZipBudget, zipEntries, ZipTooLarge, type ZipEntry } from './zip'

/** The KML document's bytes, or the message saying why there is none; only the chosen KML is inflated, under zip.ts's caps. */
export async function kmlOfKmz(bytes: Uint8Array): Promise<Uint8Array | string> {
  try {
    const kmls = zipEntries(bytes).filter((f) => /\.kml$/i.test(f.name))
    const doc: ZipEntry | undefined = kmls.find((f) => f.name.toLowerCase() === 'doc.kml') ?? kmls.find((f) => !f.name.includes('/')) ?? kmls[0]
    if (!doc) return IMPORT_MSG.kmzNoKml
    return new ZipBudget().inflate(bytes, doc)
  } catch (err) {
    return err instanceof ZipTooLarge ? IMPORT_MSG.zipTooLarge : MAP_MSG.importUnreadable
  }
}
