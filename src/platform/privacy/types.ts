/** WeChat's privacy agreement: its prompt when a private API needs it, and the console's guide. */
export interface PrivacyChoice {
  event: 'agree' | 'disagree'
  /** The id of the agreePrivacyAuthorization button the user tapped (WeChat checks it on agree). */
  buttonId?: string
}

export interface PrivacyPlatform {
  /** Whether this platform asks for the agreement at all (the mini-program only). */
  readonly asks: boolean
  /**
   * Calls `onNeed` when a private API waits for the user's agreement; the call goes on (or fails)
   * once the given `resolve` has the user's choice.
   */
  listen(onNeed: (resolve: (choice: PrivacyChoice) => void) => void): void
  /** Opens the privacy guide filled in on the console; false when it could not be opened. */
  openContract(): Promise<boolean>
}
