/** Files for export and import: the types shared by the H5 and weapp adapters. */
import type { ExportFile } from '../../../types/mapdata'

/** A file the user picked (for import). */
export interface PickedTextFile {
  name: string
  /** Its text, when the platform read it as text ('' when only its bytes were read). */
  content: string
  /**
   * Its bytes as base64, as stored: the server detects GBK, UTF-16 or UTF-8 from them and unzips a
   * KMZ (text read here as UTF-8 would already have lost a GBK file's Chinese).
   */
  base64?: string
}

/** Where an exported file went. */
export interface SavedFile {
  name: string
  /** Local path on weapp (user data folder); empty on H5 (the browser downloaded it). */
  path: string
  /** Whether the user still needs a tap to send it on (weapp: share to a chat). */
  needsShare: boolean
}

export interface FileAdapter {
  /** Saves an exported file (text, or bytes as base64): H5 downloads it; weapp writes it to the user data folder. */
  saveTextFile(file: ExportFile): Promise<SavedFile>
  /** weapp: sends the saved file to a chat (must run in a tap handler); H5: nothing to do. */
  shareSavedFile(saved: SavedFile): Promise<void>
  /** Lets the user pick a file of the given extensions (IMPORT_EXTENSIONS) and reads its bytes; null when cancelled. */
  pickTextFile(extensions: string[]): Promise<PickedTextFile | null>
}
