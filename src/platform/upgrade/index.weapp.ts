/**
 * Opening an upgrade's installer (the mini-program): WeChat updates mini-programs itself,
 * so nothing is opened here (the upgrade prompt never shows on weapp). The H5 entry opens the URL.
 */

/** Opens the installer's address; false when this platform has nothing to open it with. */
export async function openDownloadUrl(_url: string): Promise<boolean> {
  return false
}
