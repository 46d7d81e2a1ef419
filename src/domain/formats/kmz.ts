/**
 * KMZ: a zip holding one KML document (doc.kml by convention, else the first .kml at the top, else
 * anywhere) and the icons and overlays it refers to. Only the KML is read: markers take the
 * layer's own icons, so the images inside are ignored.
 */
import JSZip from 'jszip'
import { MAP_MSG } from '../messages'
import { IMPORT_MSG } from '../importMessages'

/** The KML document's bytes, or the message saying why there is none. */
export async function kmlOfKmz(bytes: Uint8Array): Promise<Uint8Array | string> {
  let zip: JSZip
  try {
    zip = await JSZip.loadAsync(bytes)
  } catch {
    return MAP_MSG.importUnreadable
  }
  const kmls = Object.values(zip.files).filter((f) => !f.dir && /\.kml$/i.test(f.name))
  const doc = kmls.find((f) => f.name.toLowerCase() === 'doc.kml') ?? kmls.find((f) => !f.name.includes('/')) ?? kmls[0]
  if (!doc) return IMPORT_MSG.kmzNoKml
  return doc.async('uint8array')
}
