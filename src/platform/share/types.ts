/** Handing text to the user: the clipboard, and the address that links into the H5 app. */
export interface SharePlatform {
  /** Copies the text; false when the system refused (SPEC 8: '复制失败，请稍后再试'). */
  copyText(text: string): Promise<boolean>
  /** Where the H5 app is served (links that are opened from a chat or a browser). */
  webOrigin(): string
  /** Offers (or withdraws) posting the open page to WeChat Moments; nothing where there is no such menu (H5). */
  allowTimeline(on: boolean): void
}
