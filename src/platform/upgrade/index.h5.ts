/**
 * Opening an upgrade's installer (H5): inside our native host app the host opens it (SPEC 7
 * `open_url`: it hands the APK/HAP link to the system); in a phone browser the page goes there. The
 * host bridge loads only now, so it stays out of the chunk every page loads.
 */

export async function openDownloadUrl(url: string): Promise<boolean> {
  try {
    const { hostBridge } = await import('../host')
    if (hostBridge.available) {
      hostBridge.send('open_url', { url })
      return true
    }
  } catch {
    // the bridge failed to load or to post: the browser opens the address itself
  }
  window.location.href = url
  return true
}
