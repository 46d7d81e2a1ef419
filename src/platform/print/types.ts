/** What the print sheet needs of a platform: showing the printed picture, saving it, opening the PDF. */

/** Where the picture went: the album (weapp), the host app (save_img), a browser download, or nowhere (refused: SPEC 8's permission dialog). */
export type PrintSaveOutcome = 'saved' | 'sent' | 'downloaded' | 'denied' | 'failed'

export interface PrintPlatform {
  /** The picture full screen (weapp previewImage, where a long press forwards or saves it); H5 opens it in a new tab. */
  previewImage(url: string): Promise<void>
  /** Saves the picture: weapp to the album under scope.writePhotosAlbum; H5 in the host app through save_img, else a download named `filename`. */
  savePicture(url: string, filename: string): Promise<PrintSaveOutcome>
  /** The PDF: weapp downloads it and opens it with openDocument (its menu forwards it to a chat); H5 downloads it named `filename`. */
  openPdf(url: string, filename: string): Promise<'opened' | 'downloaded' | 'failed'>
  /** Opens the settings where album access is granted; false where there are none. */
  openSettings(): Promise<boolean>
}
