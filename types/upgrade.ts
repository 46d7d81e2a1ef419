/**
 * The app-upgrade check (SPEC 3 "App version", SPEC 4 "Upgrade prompt", SPEC 7
 * /api/system/check/upgrade {version}). Only the Android and HarmonyOS builds of the H5 app ask:
 * the client sends its version code (SPEC 9: 70) and its platform, and the server answers with the
 * newest release for that platform above that code, or says there is none.
 */

/** The platforms that have their own installable releases. */
export type ReleasePlatform = 'android' | 'harmony'

/** SPEC 3 "App version": one release of the installable app. */
export interface AppVersion {
  platform: ReleasePlatform
  /** The version code (an integer that grows with each release; the client's is SPEC 9's 70). */
  version: number
  /** The version shown to people, e.g. '1.0.40'. */
  version_str: string
  /** The update notes, one line each. */
  upgrades: string[]
  /** Where the installer is (http or https). */
  download_url: string
  /** When the release was added (ISO 8601). */
  released_at: string
}

/** What the check answers: `latest` is the newest release above the client's version, or null. */
export interface UpgradeCheck {
  has_update: boolean
  latest: AppVersion | null
}

export interface UpgradeApi {
  /** Public (anonymous users are asked too). */
  '/api/system/check/upgrade': { req: { version: number; platform: ReleasePlatform }; res: UpgradeCheck }
}
