/**
 * The offline storage in the mini-program: the user file system (USER_DATA_PATH/offline/, one file a
 * key), since Taro.setStorage holds only 10 MB in all and 1 MB a key, and a 5,000-marker layer alone
 * is about 1.6 MB of JSON. Photos kept for the outbox are copied under files/. The network's state
 * comes from getNetworkType and onNetworkStatusChange.
 */
export type { NetworkStatus, OfflinePlatform, OfflineStorage } from './types'
import Taro from '@tarojs/taro'
import type { NetworkStatus, OfflinePlatform } from './types'
import { weappOfflineStorage } from './userFiles'

/**
 * The most this app keeps: WeChat allows a mini-program 200 MB of user files; 50 MB holds some thirty
 * 5,000-marker layers with their notes and the outbox's photos, and leaves the rest to other uses.
 */
export const WEAPP_OFFLINE_QUOTA_BYTES = 50 * 1024 * 1024

/** Connected or not, as WeChat last said (connected until it answers: a failed call says offline soon enough). */
function weappNetwork(): NetworkStatus {
  let online = true
  const listeners = new Set<(online: boolean) => void>()
  const set = (next: boolean) => {
    if (next === online) return
    online = next
    for (const fn of Array.from(listeners)) fn(next)
  }
  try {
    void Taro.getNetworkType().then(
      (res) => set(res.networkType !== 'none'),
      () => undefined,
    )
    Taro.onNetworkStatusChange((res) => set(res.isConnected))
  } catch {
    // Not in a mini-program (tests import the neutral entry): always online.
  }
  return {
    online: () => online,
    onChange: (fn) => {
      listeners.add(fn)
      return () => listeners.delete(fn)
    },
  }
}

let made: OfflinePlatform | null = null

/** The one offline platform of the mini-program, made on first use. */
export function deviceOffline(): OfflinePlatform {
  made ??= {
    storage: weappOfflineStorage(`${Taro.env?.USER_DATA_PATH ?? 'wxfile://usr'}/offline`, WEAPP_OFFLINE_QUOTA_BYTES, () => Taro.getFileSystemManager()),
    network: weappNetwork(),
    quotaBytes: WEAPP_OFFLINE_QUOTA_BYTES,
  }
  return made
}
