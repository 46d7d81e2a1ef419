/**
 * Share rules (SPEC 2, 4, 5, 9): the display bit mask, defaults, default names, the form's
 * validation with SPEC 5's exact messages, expiry by the day in Asia/Shanghai, and the link.
 * Shared by the share dialog, the share view and the server.
 */
import { SHARE_BTN, SHARE_BTN_DEFAULT, SHARE_BTN_ROUTE_DEFAULT, SHARE_NAME_MAX, SHARE_PWD_MAX } from './constants'
import { MSG } from './messages'
import { SHARE_MSG } from './shareMessages'
import { charLength } from './validate'

/** 1 layer, 2 marker, 3 route (SPEC 3 "Share"). */
export type ShareType = 1 | 2 | 3

/** The share kinds by name. */
export const SHARE_KIND = { layer: 1, marker: 2, route: 3 } as const satisfies Record<string, ShareType>

export const SHARE_KIND_NAMES: Record<ShareType, string> = { 1: '图层', 2: '标注', 3: '路线' }

/** The dialog's title: the kind plus 'data share'. */
export function shareDialogTitle(type: ShareType): string {
  return `${SHARE_KIND_NAMES[type]}数据分享`
}

/** SPEC 5: '{data name}_{kind}_分享'; a layer share without a data name is '图层_分享'. */
export function defaultShareName(type: ShareType, dataName?: string | null): string {
  const name = (dataName ?? '').trim()
  if (!name) return `${SHARE_KIND_NAMES[type]}_分享`
  return `${name}_${SHARE_KIND_NAMES[type]}_分享`.slice(0, SHARE_NAME_MAX)
}

/** SPEC 9: default 60 (4+8+16+32); a route share 172 (route markers on). */
export function defaultShareMask(type: ShareType): number {
  return type === 3 ? SHARE_BTN_ROUTE_DEFAULT : SHARE_BTN_DEFAULT
}

export function hasShareFlag(mask: number, flag: number): boolean {
  return (mask & flag) === flag
}

export function withShareFlag(mask: number, flag: number, on: boolean): number {
  return on ? mask | flag : mask & ~flag
}

/** Every defined bit (255); anything else in a mask is dropped. */
export const SHARE_MASK_ALL = Object.values(SHARE_BTN).reduce((a, b) => a | b, 0)

/** The display switches in the order the dialog lists them. */
export const SHARE_FLAGS: { flag: number; label: string; mobileOnly?: boolean; routeOnly?: boolean }[] = [
  { flag: SHARE_BTN.MARKER_TITLE, label: '显示标注名称' },
  { flag: SHARE_BTN.SEARCH, label: '搜索' },
  { flag: SHARE_BTN.TOOLBOX, label: '工具箱' },
  { flag: SHARE_BTN.REFRESH, label: '刷新' },
  { flag: SHARE_BTN.TOGGLE_TITLE, label: '切换名称显示' },
  { flag: SHARE_BTN.LOCATE, label: '定位（仅手机）', mobileOnly: true },
  { flag: SHARE_BTN.MAP_STYLE, label: '分享当前地图样式' },
  { flag: SHARE_BTN.ROUTE_MARKERS, label: '分享路线标注', routeOnly: true },
]

export interface ShareForm {
  type: ShareType
  name: string
  data_ids: number[]
  need_pwd: boolean
  pwd: string
  /** 'YYYY-MM-DD' or '' */
  exp: string
  use_exp: boolean
  show_btn: number
}

export function newShareForm(type: ShareType, dataIds: number[] = [], dataName?: string | null): ShareForm {
  return { type, name: defaultShareName(type, dataName), data_ids: dataIds, need_pwd: false, pwd: '', exp: '', use_exp: false, show_btn: defaultShareMask(type) }
}

/** SPEC 5: switching the password off clears it. */
export function setSharePwdSwitch(form: ShareForm, on: boolean): ShareForm {
  return { ...form, need_pwd: on, pwd: on ? form.pwd : '' }
}

/** SPEC 5: switching the expiry off (or cancelling the date) clears it. */
export function setShareExpSwitch(form: ShareForm, on: boolean): ShareForm {
  return { ...form, use_exp: on, exp: on ? form.exp : '' }
}

/** SPEC 4: picking type 3 (route) sets the mask to 172 (route markers on). */
export function setShareType(form: ShareForm, type: ShareType): ShareForm {
  return { ...form, type, show_btn: type === 3 ? SHARE_BTN_ROUTE_DEFAULT : form.type === 3 ? SHARE_BTN_DEFAULT : form.show_btn }
}

/** The day in China (UTC+8 all year, no daylight saving) as 'YYYY-MM-DD'. */
export function shanghaiDate(now: Date): string {
  return new Date(now.getTime() + 8 * 3600_000).toISOString().slice(0, 10)
}

const DATE_RE = /^\d{4}-\d{2}-\d{2}$/

/** Days ahead the expiry picker first shows: a week is the usual life of a link handed to someone. */
export const SHARE_EXP_DEFAULT_DAYS = 7

/** The date the expiry picker opens on: the date already chosen, else a week from today (Asia/Shanghai). */
export function shareExpPickerDate(exp: string, now: Date): string {
  if (DATE_RE.test(exp)) return exp
  return shanghaiDate(new Date(now.getTime() + SHARE_EXP_DEFAULT_DAYS * 86_400_000))
}

/** SPEC 5 validation: the first problem's message, or null. `today` is shanghaiDate(now). */
export function checkShareForm(form: Pick<ShareForm, 'name' | 'data_ids' | 'need_pwd' | 'pwd' | 'use_exp' | 'exp'>, today: string): string | null {
  const name = form.name.trim()
  if (!name) return MSG.shareNameRequired
  if (charLength(name) > SHARE_NAME_MAX) return SHARE_MSG.nameTooLong(SHARE_NAME_MAX)
  if (!form.data_ids.length) return MSG.shareDataRequired
  if (form.need_pwd) {
    if (!form.pwd.trim()) return MSG.sharePwdRequired
    if (charLength(form.pwd.trim()) > SHARE_PWD_MAX) return SHARE_MSG.pwdTooLong(SHARE_PWD_MAX)
  }
  if (form.use_exp) {
    if (!form.exp) return MSG.shareExpRequired
    if (!DATE_RE.test(form.exp)) return SHARE_MSG.expInvalid
    if (form.exp < today) return SHARE_MSG.expPast
  }
  return null
}

/** A share works until the end of its expiry day in China (DESIGN 9). */
export function isShareExpired(exp: string | null | undefined, now: Date): boolean {
  return !!exp && exp < shanghaiDate(now)
}

/** The public link of a share. */
export function shareLink(origin: string, id: string): string {
  return `${origin.replace(/\/+$/, '')}/share/view?id=${encodeURIComponent(id)}`
}

/** The picture of a share's forwarded card (5:4 PNG, drawn by the server from the share's data; a lock for a password share). */
export function shareCardUrl(origin: string, id: string): string {
  return `${origin.replace(/\/+$/, '')}/api/share/card/${encodeURIComponent(id)}.png`
}

/** What a forwarded card or a timeline post of a share carries. */
export function shareForward(origin: string, id: string, name: string | undefined): { title: string; path: string; query: string; imageUrl: string } {
  const query = `id=${encodeURIComponent(id)}`
  return { title: name || SHARE_MSG.untitled, path: `/pages/share/view/index?${query}`, query, imageUrl: shareCardUrl(origin, id) }
}

/** How soon a share ends, for its colour: over (red), today (orange: the link dies tonight), later (green), forever (grey). */
export type ShareExpiryTone = 'over' | 'today' | 'later' | 'forever'

/**
 * What a share's expiry reads as, for the person who made it (/shares) and for whoever opens it
 * (/share/view). `expired` is the server's verdict, which wins over the date arithmetic.
 */
export function shareExpiry(exp: string | null, expired: boolean, now: Date): { text: string; tone: ShareExpiryTone } {
  if (!exp) return { text: SHARE_MSG.expNever, tone: 'forever' }
  if (expired || isShareExpired(exp, now)) return { text: SHARE_MSG.expOver(exp), tone: 'over' }
  if (exp === shanghaiDate(now)) return { text: SHARE_MSG.expToday, tone: 'today' }
  return { text: SHARE_MSG.expUntil(exp), tone: 'later' }
}
