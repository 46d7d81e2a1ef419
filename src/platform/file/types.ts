/** Files for export and import: the types shared by the H5 and weapp adapters. */
import type { ExportFile } from '../../../types/mapdata'

/** A text file the user picked (for import). */
export interface PickedTextFile {
  name: string
  content: string
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
  /** Saves an exported text file: H5 downloads it; weapp writes it to the user data folder. */
  saveTextFile(file: ExportFile): Promise<SavedFile>
  /** weapp: sends the saved file to a chat (must run in a tap handler); H5: nothing to do. */
  shareSavedFile(saved: SavedFile): Promise<void>
  /** Lets the user pick a .geojson/.json/.kml/.csv file and reads its text; null when cancelled. */
  pickTextFile(extensions: string[]): Promise<PickedTextFile | null>
}
