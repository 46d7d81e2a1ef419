/** Low-level page navigation (Taro's router on both platforms). The router maps SPEC paths to pages. */
export interface PageLocation {
  /** The path the user sees: SPEC path on H5 (browser routing), '/' + page route on weapp. */
  pathname: string
  /** Query string without '?'. */
  search: string
}

export interface PageNavigator {
  navigateTo(url: string): void
  redirectTo(url: string): void
  reLaunch(url: string): void
  back(): void
  /** Back to the page that opened this one, when there is one; false when this page was opened directly. */
  backToOpener(): boolean
  location(): PageLocation
  /** Replace the address bar path without reloading (H5 aliases such as / and /index). */
  replaceAddress(pathWithQuery: string): void
  /**
   * Loads and runs a page's code (a page url, as navigateTo takes) ahead of its first open where pages
   * load on demand (H5); nothing where every page is in the package (the mini-program).
   */
  warmPage(url: string): void
}
