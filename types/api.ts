/**
 * The wire contract (SPEC section 7, DESIGN section 9): every call is POST JSON; the body carries
 * the call's fields at the top level beside `header`; the response is {header:{errcode,errmsg},data}.
 */
import type { ExpiredInfo, GroupInfo, LoginResult, SystemConfig, UserInfo } from './entities'

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

/** Request body of each call (without header) and its `data`. */
export interface Api {
  '/api/system/send/code': { req: { phone: string }; res: { sent: boolean; cooldown: number } }
  '/api/system/check/code': { req: { phone: string; code: string }; res: { valid: boolean } }
  '/api/system/get/config': { req: { no_check_permission?: boolean }; res: SystemConfig }
  '/api/user/login': { req: { phone: string; code: string; channel?: string }; res: LoginResult }
  '/api/user/getinfo': { req: Record<string, never>; res: LoginResult }
  '/api/user/init': { req: { nickname: string }; res: UserInfo }
  '/api/user/save': { req: { nickname?: string; avatar?: string }; res: UserInfo }
  '/api/user/exist/phone': { req: { phone: string }; res: { exist: boolean } }
  '/api/user/logoff': { req: Record<string, never>; res: null }
  '/api/user/logout': { req: Record<string, never>; res: null }
  '/api/user/check/expired': { req: Record<string, never>; res: ExpiredInfo }
  '/api/group/info': { req: Record<string, never>; res: GroupInfo }
  '/api/group/save/name': { req: { name: string }; res: GroupInfo }
  '/api/group/create': { req: { name?: string }; res: LoginResult }
  '/api/group/join': { req: { code: string }; res: LoginResult }
}

export type ApiPath = keyof Api
export type ApiReq<P extends ApiPath> = Api[P]['req']
export type ApiRes<P extends ApiPath> = Api[P]['res']
