/** Working without signal on saved map data: what the map says about it. */
import { dateTime } from './time'

export const OFFLINE_MSG = {
  /** Reads were answered from this phone's copy (no network): once, with the time the copy was saved. */
  showingSaved: (savedAt: string) => (savedAt ? `网络不可用，地图显示的是本机保存的数据（保存于${dateTime(savedAt)}）` : '网络不可用，地图显示的是本机保存的数据'),
  /** The storage was full: these layers' saved copies were deleted to make room. */
  dropped: (names: string[]) => `本机离线空间不足，已删除这些图层的离线数据：${names.join('、')}`,
  /** Even after dropping every layer not kept for offline use, these do not fit. */
  pinnedTooBig: (names: string[]) => `本机离线空间不足，离线保留的图层也放不下：${names.join('、')}`,
  /** A layer's copy could not be saved at all (nothing left to drop). */
  notSaved: (names: string[]) => `本机离线空间不足，这些图层没有保存到本机：${names.join('、')}`,
  /** The layer menu's switch. */
  pinOn: '离线保留：已开启',
  pinOff: '离线保留：未开启',
  pinned: (name: string) => `「${name}」将一直保存在本机，供离线使用`,
  unpinned: (name: string) => `「${name}」不再固定保存在本机`,
} as const
