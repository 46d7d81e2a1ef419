/** An external page shown inside the app (/web, SPEC 2). */
export interface WebFrameProps {
  /** An http(s) address that domain/web.ts accepted. */
  url: string
  /** The page could not be reached (the page then shows 页面无法打开 with a retry). */
  onError: () => void
}
