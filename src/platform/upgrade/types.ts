/** Opens the installer's address (the host app's open_url or the browser); false when this platform has nothing to open it with. */
export type OpenDownloadUrl = (url: string) => Promise<boolean>
