/** HTTP transport (the mini-program): Taro.request, that is wx.request. */
import Taro from '@tarojs/taro'
import type { HttpTransport } from './types'

export const taroTransport: HttpTransport = {
  async post(url, body) {
    const res = await Taro.request({
      url,
      method: 'POST',
      data: body as Record<string, unknown>,
      header: { 'content-type': 'application/json' },
      dataType: 'json',
      timeout: 30000,
    })
    return { status: res.statusCode, data: res.data }
  },
}
