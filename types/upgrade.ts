/** The app-upgrade check (issue 8, SPEC 7 /api/system/check/upgrade {version}). Filled in by the upgrade work. */
export interface UpgradeApi {}
