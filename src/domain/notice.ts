/** Notice bar (SPEC 4): types primary, warning, success, danger, error (default); 3000 ms. */
import { NOTICE_BAR_MS } from './constants'

export type NoticeType = 'primary' | 'warning' | 'success' | 'danger' | 'error'

/** What a notice offers to do about its cause (a bare-text button at its end); tapping it also dismisses the notice. */
export interface NoticeAction {
  label: string
  run: () => void
}

export interface Notice {
  id: number
  type: NoticeType
  text: string
  duration: number
  action?: NoticeAction
}

export const NOTICE_COLORS: Record<NoticeType, { bg: string; color: string }> = {
  primary: { bg: '#165DFF', color: '#fff' },
  warning: { bg: '#FF7D00', color: '#fff' },
  success: { bg: '#00B42A', color: '#fff' },
  danger: { bg: '#F53F3F', color: '#fff' },
  error: { bg: '#CB2634', color: '#fff' },
}

let seq = 0
export function makeNotice(text: string, type: NoticeType = 'error', duration: number = NOTICE_BAR_MS, action?: NoticeAction): Notice {
  seq += 1
  return action ? { id: seq, type, text, duration, action } : { id: seq, type, text, duration }
}
