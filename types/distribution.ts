/**
 * Distribution (/reg "distribution register", /distribution/view "distribution view", both
 * public; SPEC 7 /api/user/distribution/register): a reseller or promoter registers with a name and
 * a phone confirmed by an SMS code, and gets a promotion code. Their promotion page
 * (/distribution/view?code=...) shows who invites, the invitation link as a QR code and a copy
 * button, the app download links, and how many people signed up through the link and how many of
 * them paid.
 *
 * People who open the invitation link land on /login?channel=dist_<code>; the login call already
 * records `channel` on a user's first sign-in, and that is what the counts read (users whose channel
 * is 'dist_<code>'; paid = those of them with at least one paid membership order).
 *
 * Registering the same phone again answers the existing promotion code (with the name unchanged),
 * so a distributor who lost their page gets it back. Codes are DISTRIBUTION_CODE_LENGTH characters
 * of the invite alphabet (src/domain/teams.ts), random, not guessable in sequence.
 */

export interface DistributionRegisterRequest {
  name: string
  phone: string
  /** The SMS code from /api/system/send/code for that phone. */
  code: string
  /** Optional company or team name. */
  company?: string
}

export interface DistributionView {
  code: string
  /** The distributor's name as shown to invitees: the full name (the distributor chose to publish it). */
  name: string
  company: string
  /** Path and query of the invitation (client builds the absolute link): '/login?channel=dist_<code>'. */
  invite_path: string
  /** People who signed in for the first time through the invitation. */
  registered: number
  /** Of those, people with a paid membership order. */
  paid: number
  /** ISO 8601. */
  created_at: string
}

export interface DistributionApi {
  '/api/user/distribution/register': { req: DistributionRegisterRequest; res: DistributionView }
  /** Public; NOT_FOUND for an unknown code. */
  '/api/user/distribution/view': { req: { code: string }; res: DistributionView }
}
