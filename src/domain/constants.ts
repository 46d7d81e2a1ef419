/** Business constants of SPEC section 9, one place for app, server and tests. */

/** Client version sent with the upgrade check. */
export const CLIENT_VERSION = 70
/** App version string shown in /about and the upgrade prompt. */
export const APP_VERSION_STR = '1.0.38'
/** AMap JS API plugin version used when none is configured. */
export const DEFAULT_MAP_PLUGIN_VERSION = '2.0'

/** Markers are fetched in pages of this size. */
export const MARKER_PAGE_SIZE = 5000

/** /addinfo's query parameter that says the form starts from the geometry the map drew (MarkerStore.handToForm). */
export const DRAWN_PARAM = 'drawn'
/** One import holds at most this many rows: a bigger file is refused before it is parsed through (split it). */
export const IMPORT_MAX_ROWS = 10_000
/** At most this many point markers are drawn per view. */
export const MAX_VISIBLE_POINTS = 200

/** Clustering applies only when this many items are in view. */
export const CLUSTER_MIN_ITEMS = 20
/** supercluster options (radius 20, min points 4, zoom 2-22). */
export const CLUSTER_OPTIONS = { radius: 20, minPoints: 4, minZoom: 2, maxZoom: 22 } as const

/** Heatmap: radius 25, opacity 0-0.8, max 100. */
export const HEATMAP_OPTIONS = { radius: 25, opacity: [0, 0.8] as [number, number], max: 100 } as const

/** Loading indicator thresholds for lines/areas and the cap on its delay. */
export const LOADING_DASHED_THRESHOLD = 10
export const LOADING_SOLID_THRESHOLD = 30
export const LOADING_DELAY_CAP_MS = 10000

/** Default marker colour. */
export const DEFAULT_MARKER_COLOR = '#165DFF'
/** Default title font size. */
export const DEFAULT_TITLE_FONT_SIZE = 14
/** Default marker size for points. */
export const DEFAULT_POINT_SIZE = 32
/** Default stroke width for lines and areas. */
export const DEFAULT_LINE_SIZE = 2

/** Default group VIP limits (custom-member detection compares against these); join_limit counts collaborators, the administrator not included. */
export const DEFAULT_GROUP_VIP = { marker_limit: 5000, join_limit: 50, file_size_limit: 2097152 } as const

/** Trial: 7 days, plus 30 days once for the questionnaire; 300 markers, 5 collaborators, 300 M. */
export const TRIAL_DAYS = 7
export const TRIAL_QUESTIONNAIRE_DAYS = 30
/** Storage quantities are in KB units (SPEC 3: file_rep_size); 300 M = 300 * 1024 KB. */
export const TRIAL_LIMITS = { marker_limit: 300, join_limit: 5, file_size_limit: 300 * 1024 } as const
/** The free plan keeps the latest 20 records and clears collaborators. */
export const FREE_KEEP_RECORDS = 20
/** Data is kept this many months after expiry. */
export const DATA_KEEP_MONTHS_AFTER_EXPIRY = 3
/**
 * The free plan's limits (level 0, and any level whose membership has expired): the latest 20
 * records, no collaborators (join_limit counts collaborators, never the administrator), 100 M of
 * storage (SPEC is silent on free storage; our choice).
 */
export const FREE_LIMITS = { marker_limit: FREE_KEEP_RECORDS, join_limit: 0, file_size_limit: 100 * 1024 } as const
/**
 * Limits of the paid tiers. VIP 3 has SPEC 9's default group VIP; VIP 1 and VIP 2 are ours (SPEC
 * gives only the defaults): 1000 markers, 10 collaborators, 512 M; 3000 markers, 30 collaborators, 1 G.
 */
export const VIP_TIER_LIMITS = {
  2: { marker_limit: 1000, join_limit: 10, file_size_limit: 512 * 1024 },
  3: { marker_limit: 3000, join_limit: 30, file_size_limit: 1024 * 1024 },
  4: DEFAULT_GROUP_VIP,
} as const
/** SPEC 3: product prices in fen of VIP 1, VIP 2, VIP 3. */
export const VIP_PRICES_FEN = { 2: 8800, 3: 29800, 4: 59800 } as const
/** One purchase lasts one year: 12 calendar months in Asia/Shanghai (31 Jan + 1 month = 28/29 Feb). */
export const VIP_PRODUCT_MONTHS = 12
/** An unpaid order closes after 2 hours (WeChat Pay's prepay_id lives as long). */
export const ORDER_PAY_WINDOW_MS = 2 * 3600_000
/** Questionnaire fields: at most this many characters each; answers may be longer. */
export const VERIFY_FIELD_MAX = 50
export const VERIFY_ANSWER_MAX = 500
/** The reset-to-free remark: at most this many characters. */
export const RESET_REMARK_MAX = 200

/** The expiry reminder shows when 1..7 days remain. */
export const EXPIRY_REMINDER_DAYS = 7

/** Storage display: at or above this many KB, show G to 1 decimal, else M. */
export const STORAGE_G_THRESHOLD_KB = 1048576

/** Poll intervals. */
export const GROUP_REFRESH_MS = 10_000
export const LOCATION_POLL_MS = 2_000
/** Reverse-geocode on every Nth location poll (20 s). */
export const GEOCODE_EVERY_N_POLLS = 10
export const HOST_MESSAGE_POLL_MS = 1_000
export const PAYMENT_USERINFO_POLL_MS = 3_000

/** Payment success notice, refresh-notice delay, notice bar default duration. */
export const PAYMENT_NOTICE_MS = 7_000
export const REFRESH_NOTICE_DELAY_MS = 3_000
export const NOTICE_BAR_MS = 3_000
/** A notice that offers an action (切换底图) stays longer than the default: the user reads it, then taps. */
export const NOTICE_ACTION_MS = 8_000

/** Geocoding range (China). */
export const GEOCODE_RANGE = { lng: [70, 136] as [number, number], lat: [2, 54] as [number, number] }

/** Share form limits and display bit mask. */
export const SHARE_NAME_MAX = 30
export const SHARE_PWD_MAX = 6
export const SHARE_BTN = {
  MARKER_TITLE: 1,
  SEARCH: 2,
  TOOLBOX: 4,
  REFRESH: 8,
  TOGGLE_TITLE: 16,
  LOCATE: 32,
  MAP_STYLE: 64,
  ROUTE_MARKERS: 128,
} as const
export const SHARE_BTN_DEFAULT = 60
export const SHARE_BTN_ROUTE_DEFAULT = 172

/** Draggable panel: initial height and drag step. */
export const PANEL_INITIAL_HEIGHT = 200
export const PANEL_DRAG_STEP = 15

/** Default system config (SPEC 9). */
export const DEFAULT_SYSTEM_CONFIG = {
  id: 0,
  logo: '',
  brand: '团队地图',
  show_phone: true,
  sign_radius: 300,
  show_marker_cluster_count: true,
  service_phone: '',
  service_url: '',
} as const

/** Default map style: type 0, bg/road/building/poi on, traffic off. */
export const DEFAULT_MAP_STYLE = { type: 0, bg: true, road: true, building: true, poi: true, traffic: false } as const

/** Toast default duration of the UI library. */
export const TOAST_MS = 2_000

/** Verification codes (DESIGN 9 leaves the details to us; the issue fixes them). */
export const SMS_CODE_LENGTH = 6
export const SMS_CODE_TTL_MS = 5 * 60_000
export const SMS_RESEND_COOLDOWN_S = 60
export const SMS_DAILY_CAP = 10
export const SMS_MAX_WRONG_TRIES = 5

/** Nickname length limit. */
export const NICKNAME_MAX = 20
/** Group name length limit. */
export const GROUP_NAME_MAX = 30

/** Watermark camera (SPEC 9): the video is the window height minus 200. */
export const CAMERA_VIDEO_HEIGHT_INSET = 200
/** Watermark camera (SPEC 9): photos are exported at 4x the on-screen size. */
export const CAMERA_EXPORT_SCALE = 4
/** Watermark camera (SPEC 9): watermark text wraps at 220 (on-screen px). */
export const WATERMARK_WRAP_WIDTH = 220
/** Image preview zoom range of the UI library (SPEC 9: 1/3 to 3). */
export const IMAGE_PREVIEW_MIN_ZOOM = 1 / 3
export const IMAGE_PREVIEW_MAX_ZOOM = 3
