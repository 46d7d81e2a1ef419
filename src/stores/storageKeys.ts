/** Local storage keys. Logout clears the user, the base settings and every map-data key. */
export const STORAGE_KEYS = {
  /** Encrypted {user, is_admin, admin_vip_expired}. */
  userInfo: 'user_info',
  /** Global app settings that survive a reload (map style, layers shown ...). */
  baseSetting: 'base_setting',
  /** Map view and data caches (filled by the map issues). */
  mapView: 'map_view',
  mapData: 'map_data',
  markerFilter: 'marker_filter',
  lastMarkerStyle: 'last_marker_style',
  lastLayerIds: 'last_layer_ids',
  openFolderIds: 'open_folder_ids',
  /** The Asia/Shanghai day the VIP expiry reminder last showed (SPEC 4: at most once a day). Kept across logout. */
  vipReminderDay: 'vip_reminder_day',
  /** Users (ids, comma-separated) greeted by the trial welcome on this device. Kept across logout. */
  trialWelcomed: 'trial_welcomed',
  /** The Asia/Shanghai day a button of the upgrade prompt was last pressed (SPEC 4: once a day). Kept across logout. */
  upgradePromptDay: 'upgrade_prompt_day',
  /** Promotion codes registered on this device (JSON list): their page shows the promoter's own view. Kept across logout (a promoter need not use the app). */
  promoterCodes: 'promoter_codes',
  /** The keyless H5 map's tile source chosen on this device (domain/tileSources.ts): a fact of the device's network, so kept across logout. */
  tileSource: 'tile_source',
  /** Development-only: continue on a desktop browser. Kept across logout. */
  allowDesktop: 'dev_allow_desktop',
} as const

export const CLEARED_ON_LOGOUT = [
  STORAGE_KEYS.userInfo,
  STORAGE_KEYS.baseSetting,
  STORAGE_KEYS.mapView,
  STORAGE_KEYS.mapData,
  STORAGE_KEYS.markerFilter,
  STORAGE_KEYS.lastMarkerStyle,
  STORAGE_KEYS.lastLayerIds,
  STORAGE_KEYS.openFolderIds,
]
