/** An external page shown inside the app (/web, SPEC 2). */
export interface WebFrameProps {
  /** An http(s) address that domain/web.ts accepted. */
  url: string
}
