/** Key-value storage: Taro storage (wx storage on weapp, localStorage on H5). */
import Taro from '@tarojs/taro'
import type { KeyValueStorage } from './types'

export type { KeyValueStorage } from './types'
export { memoryStorage } from './memory'

export const taroStorage: KeyValueStorage = {
  get(key) {
    try {
      const v = Taro.getStorageSync(key)
      return typeof v === 'string' && v !== '' ? v : null
    } catch {
      return null
    }
  },
  set(key, value) {
    Taro.setStorageSync(key, value)
  },
  remove(key) {
    try {
      Taro.removeStorageSync(key)
    } catch {
      // already gone
    }
  },
}
