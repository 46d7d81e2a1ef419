/**
 * The wire contract (SPEC section 7, DESIGN section 9): every call is POST JSON; the body carries
 * the call's fields at the top level beside `header`; the response is {header:{errcode,errmsg},data}.
 */
import type { ConsentApi } from './invitations'
import type { ExpiredInfo, GroupInfo, LoginResult, MemberLocation, SystemConfig, UserInfo } from './entities'
import type {
  ExportFile,
  FieldInput,
  FileCrs,
  Icon,
  ImportFileFormat,
  ExportFormat,
  ImportProgress,
  ImportResult,
  Layer,
  LayerField,
  LayerType,
  FieldValue,
  Marker,
  MarkerInput,
  MarkerStyle,
  Note,
  OpAction,
  OpEntity,
  OpLog,
  PermissionItem,
  TitleStyle,
} from './mapdata'
import type { ShareApi } from './share'
import type { TeamsApi } from './teams'
import type { VipApi } from './vip'
import type { RouteApi } from './routes'
import type { PrintApi } from './print'
import type { UpgradeApi } from './upgrade'
import type { SignApi } from './signs'
import type { TaskApi } from './tasks'
import type { DistributionApi } from './distribution'
import type { DataListApi } from './datalist'
import type { SyncChangesReq, SyncChangesRes } from './sync'

export interface RequestHeader {
  userid: number | ''
  groupid: number | ''
  token: string
  /** 'app_' + platform, e.g. app_h5, app_weapp */
  device: string
  os: string
}

export interface ResponseHeader {
  errcode: number
  errmsg: string
}

export interface Envelope<T> {
  header: ResponseHeader
  data: T | null
}

/** Business error codes (HTTP 200 with header.errcode != 0). Only a bad session is HTTP 401. */
export enum ErrCode {
  OK = 0,
  VALIDATION = 1001,
  NOT_FOUND = 1002,
  FORBIDDEN = 1003,
  LIMIT_REACHED = 1004,
  RATE_LIMITED = 1005,
  CONFLICT = 1006,
  EXPIRED = 1007,
  CODE_INVALID = 1008,
  /** Only in the body of an HTTP 401 (missing, invalid or revoked session). */
  UNAUTHORIZED = 1401,
  INTERNAL = 1500,
}

export interface Paged<T> {
  list: T[]
  total: number
}

/** How a page of markers travels: 'columns' asks for a MarkerColumnsPage (absent: the SPEC's {list, total}). */
export type MarkerPageFormat = 'columns'

/**
 * A page of markers in columns (version 1), what /api/marker/getlist and /api/marker/get/share answer with `format: 'columns'`.
 * One array per field, each as long as the page (`n`) unless it says otherwise. Runs are [value, count, value, count ...]
 * pairs whose counts add up to `n`. Dictionaries hold each distinct value once; their columns are runs of indexes into them.
 */
export interface MarkerColumnsPage {
  /** The format's version: a later format gets another number, and a client refuses a number it does not know. */
  v: 1
  /** As the SPEC page's total. */
  total: number
  /** Markers on this page. */
  n: number
  /** Each id minus the id before it (the first minus 0). */
  id: number[]
  /** Runs. */
  layer_id: number[]
  /** Runs of the marker kind (MarkerType). */
  type: number[]
  name: string[]
  points: string[]
  /** Distinct styles; `style` is runs of indexes into them. */
  styles: MarkerStyle[]
  style: number[]
  /** Runs. */
  width: number[]
  /** Runs. */
  radius: number[]
  /** Runs. */
  sort: number[]
  /** Distinct custom field sets; `fields` is runs of indexes into them. */
  field_sets: Record<string, FieldValue>[]
  fields: number[]
  /** Distinct [creator_id, creator_name]; `creator` is runs of indexes into them. */
  creators: [number, string][]
  creator: number[]
  /** Runs. */
  rev: number[]
  /**
   * Milliseconds since 1970 as the difference from the last number before it (the first from 0), the ISO text being
   * `new Date(ms).toISOString()`; a text that would not come back exactly so travels as the string itself.
   */
  created_at: (number | string)[]
  updated_at: (number | string)[]
  /** Only the markers that have one: [gap, client_id] pairs, the gap being how many markers without one come before it since the last. */
  client_id: (number | string)[]
}

/** Request body of each call (without header) and its `data`. */
export interface Api extends TeamsApi, ShareApi, VipApi, RouteApi, UpgradeApi, SignApi, TaskApi, DistributionApi, ConsentApi, DataListApi, PrintApi {
  '/api/system/send/code': { req: { phone: string }; res: { sent: boolean; cooldown: number } }
  '/api/system/check/code': { req: { phone: string; code: string }; res: { valid: boolean } }
  '/api/system/get/config': { req: { no_check_permission?: boolean }; res: SystemConfig }
  /** The operator's call: header x-admin-token (env ADMIN_TOKEN), no session; only the fields sent change. */
  '/api/system/save/config': { req: Partial<Omit<SystemConfig, 'id'>>; res: SystemConfig }
  '/api/user/login': { req: { phone: string; code: string; channel?: string }; res: LoginResult }
  '/api/user/getinfo': { req: Record<string, never>; res: LoginResult }
  '/api/user/init': { req: { nickname: string; avatar?: string }; res: UserInfo }
  '/api/user/location/save': { req: { lng: number; lat: number; addr?: string }; res: null }
  '/api/user/location/getbygroupid': { req: Record<string, never>; res: MemberLocation[] }
  '/api/user/save': { req: { nickname?: string; avatar?: string }; res: UserInfo }
  '/api/user/exist/phone': { req: { phone: string }; res: { exist: boolean } }
  '/api/user/logoff': { req: Record<string, never>; res: null }
  '/api/user/logout': { req: Record<string, never>; res: null }
  '/api/user/check/expired': { req: Record<string, never>; res: ExpiredInfo }
  '/api/group/info': { req: Record<string, never>; res: GroupInfo }
  '/api/group/save/name': { req: { name: string }; res: GroupInfo }
  '/api/group/create': { req: { name?: string }; res: LoginResult }
  '/api/group/join': { req: { code: string }; res: LoginResult }

  // Map data
  '/api/layer/getlist': { req: Record<string, never>; res: Layer[] }
  '/api/layer/save': { req: { id?: number; name: string; parent_id?: number; type?: LayerType; sort?: number; rev?: number }; res: Layer }
  /** Deletes a layer, or a folder with everything in it (the page confirms first); restorable from the log. */
  '/api/layer/delete': { req: { id: number; rev?: number }; res: { layers: number; markers: number } }
  '/api/layer/setting/default': { req: { id: number }; res: null }
  '/api/layer/setting/show': { req: { ids: number[]; show: boolean }; res: null }
  /** Sets the permission ids one member (user_id) or one department (department_id, exactly one of the two) holds on one layer; [] removes them. */
  '/api/layer/save/auth': { req: { layer_id: number; user_id?: number; department_id?: number; opts: string[] }; res: null }
  /**
   * With `format: 'columns'` the wire `data` is a MarkerColumnsPage instead of the SPEC's {list, total}: the same markers, rows,
   * order, paging and total, a fraction of the bytes and of the phone's parse and garbage work. The api client decodes it
   * (src/domain/markerColumns.ts), so callers get this Paged<Marker> either way; without the field the SPEC shape comes as always.
   */
  '/api/marker/getlist': {
    req: {
      layer_ids: number[]
      pageindex: number
      pagesize: number
      /** Keyset cursor: the last marker of the page before. */ after_layer_id?: number
      after_id?: number
      format?: MarkerPageFormat
    }
    res: Paged<Marker>
  }
  '/api/marker/getbyid': { req: { ids: number[] }; res: Marker[] }
  '/api/marker/save': { req: MarkerInput; res: Marker }
  '/api/marker/delete': { req: { id: number; rev?: number }; res: null }
  /** Keyword over name, notes and field values; optional bounding box [minLng, minLat, maxLng, maxLat] (GCJ-02). */
  '/api/marker/search': { req: { kw?: string; layer_ids?: number[]; bbox?: [number, number, number, number]; pageindex?: number; pagesize?: number }; res: Paged<Marker> }
  /** Light listing for syncing: id, layer and last change of the markers in the given layers. */
  '/api/marker/getlist/ids': { req: { ids: number[] }; res: { id: number; layer_id: number; updated_at: string }[] }
  /** content: the file's text, or with encoding 'base64' its bytes (GBK, UTF-16 and KMZ need them); file_name names the layers made for its other kinds. */
  /** import_id: made by the app, to ask the import's progress and to cancel it while it reads and checks. */
  '/api/marker/import': { req: { layer_id: number; format: ImportFileFormat; content: string; encoding?: 'base64'; file_name?: string; crs?: FileCrs; import_id?: string }; res: ImportResult }
  /** null when this server knows no such import of the caller's (another server runs it, or it ended a minute ago). */
  '/api/marker/import/progress': { req: { import_id: string }; res: ImportProgress | null }
  /** cancelled false: the import is writing or done, and will finish. */
  '/api/marker/import/cancel': { req: { import_id: string }; res: { cancelled: boolean } }
  /** ids: only these markers of the layer (a data list selection). */
  '/api/marker/export': { req: { layer_id: number; format: ExportFormat; crs?: FileCrs; ids?: number[] }; res: ExportFile }
  '/api/marker/note/getlist': { req: { markerid: number }; res: Note[] }
  '/api/marker/note/save': { req: { id?: number; marker_id: number; content: string; photos?: string[]; rev?: number; client_id?: string }; res: Note }
  /** `revs`: the revision each delete started from, one per id (types/sync.ts). */
  '/api/marker/note/delete': { req: { ids: number[]; revs?: number[] }; res: null }
  '/api/layer/field/getlist': { req: { layer_id: number }; res: LayerField[] }
  '/api/layer/field/save': { req: FieldInput; res: LayerField }
  '/api/layer/field/delete': { req: { id: number; rev?: number }; res: null }
  '/api/layer/field/sort': { req: { layer_id: number; ids: number[] }; res: LayerField[] }
  '/api/system/title/style/getlist': { req: Record<string, never>; res: TitleStyle[] }
  '/api/system/title/style/getbylayerid': { req: { layerids: number[] }; res: TitleStyle[] }
  '/api/system/title/style/save': { req: Omit<TitleStyle, 'id' | 'rev'> & { id?: number; rev?: number }; res: TitleStyle }
  '/api/system/get/icon': { req: Record<string, never>; res: Icon[] }
  '/api/system/save/icon': { req: { id?: number; name: string; url: string }; res: Icon }
  '/api/system/delete/icon': { req: { id: number }; res: null }
  '/api/module/getlist/layer': { req: Record<string, never>; res: PermissionItem[] }
  '/api/oplog/getlist': { req: { pageindex?: number; pagesize?: number; entity?: OpEntity; action?: OpAction; user_id?: number; kw?: string }; res: Paged<OpLog> }
  '/api/oplog/restore': { req: { id: number }; res: null }
  /** The caller's group's change log after `since` (types/sync.ts); the push socket is GET /api/sync/socket. */
  '/api/sync/changes': { req: SyncChangesReq; res: SyncChangesRes }
}

export type ApiPath = keyof Api
export type ApiReq<P extends ApiPath> = Api[P]['req']
export type ApiRes<P extends ApiPath> = Api[P]['res']
