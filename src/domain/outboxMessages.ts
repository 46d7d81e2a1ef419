/** Working without signal: what the outbox tells the user (the chip, the sheet, the logout warning). */
import type { OutboxItem } from './outbox'

export const OUTBOX_MSG = {
  /** A save kept on the phone instead of 网络错误. */
  savedOffline: '已保存在手机上，联网后自动同步',
  deletedOffline: '已在手机上删除，联网后自动同步',
  /** The chip: items waiting. */
  pending: (n: number) => `${n}条待同步`,
  /** The chip: items the server refused. */
  failed: (n: number) => `${n}条同步失败`,
  sheetTitle: '待同步的数据',
  empty: '没有待同步的数据',
  retryAll: '全部重试',
  retry: '重试',
  discard: '放弃',
  discardTitle: '放弃这条数据？',
  /** What is lost: a queued create takes the marker (or note) off the phone with it. */
  discardCreate: (what: string) => `「${what}」还未同步，放弃后将从手机上删除，且无法恢复`,
  discardChange: (what: string) => `对「${what}」的修改还未同步，放弃后不会保存到服务器，且无法恢复`,
  confirmDiscard: '放弃',
  cancel: '取消',
  statusPending: '等待同步',
  statusSending: '同步中',
  statusRefused: '同步失败',
  statusConflict: '有冲突，待处理',
  statusWaiting: '等待前一条处理',
  logoutTitle: '退出登录',
  /** SPEC 4 logout clears local data: the outbox goes with it. */
  logoutWarn: (n: number) => `${n}条数据还未同步，退出后将丢失`,
  logoutAnyway: '仍然退出',
  untitled: '未命名',
  photo: '照片',
} as const

const KIND_LABEL: Record<string, string> = {
  'marker.create': '新建标注',
  'marker.save': '修改标注',
  'marker.delete': '删除标注',
  'note.create': '新建备注',
  'note.save': '修改备注',
  'note.delete': '删除备注',
  photo: '上传照片',
}

/** What the item does, as the sheet lists it. */
export function outboxKindLabel(it: OutboxItem): string {
  if (it.kind === 'marker.save' && it.marker_id < 0) return KIND_LABEL['marker.create']
  if (it.kind === 'note.save' && it.note_id < 0) return KIND_LABEL['note.create']
  return KIND_LABEL[it.kind]
}
