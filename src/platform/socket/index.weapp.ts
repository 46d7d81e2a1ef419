/** The sync socket in the mini-program: Taro.connectSocket, that is wx.connectSocket and its SocketTask. */
export type { SocketConnection, SocketPlatform } from './types'
import Taro from '@tarojs/taro'
import type { SocketConnection, SocketPlatform } from './types'

export const socketPlatform: SocketPlatform = {
  connect(url): SocketConnection {
    // Taro.connectSocket resolves to the task; its handlers may be set before it opens, so queue them.
    const ready = Taro.connectSocket({ url, header: { 'content-type': 'application/json' } })
    let task: Taro.SocketTask | null = null
    const pending: ((t: Taro.SocketTask) => void)[] = []
    const withTask = (fn: (t: Taro.SocketTask) => void) => (task ? fn(task) : pending.push(fn))
    let closeFns: ((code: number) => void)[] = []
    let errorFns: (() => void)[] = []
    ready.then(
      (t) => {
        task = t
        for (const fn of pending.splice(0)) fn(t)
      },
      () => {
        for (const fn of errorFns) fn()
        for (const fn of closeFns) fn(1006)
      },
    )
    return {
      send: (text) => withTask((t) => t.send({ data: text })),
      close: (code, reason) => withTask((t) => t.close({ code: code ?? 1000, reason })),
      onOpen: (fn) => withTask((t) => t.onOpen(() => fn())),
      onMessage: (fn) => withTask((t) => t.onMessage((res) => typeof res.data === 'string' && fn(res.data))),
      onClose: (fn) => {
        closeFns = [...closeFns, fn]
        withTask((t) => t.onClose((res) => fn(res.code)))
      },
      onError: (fn) => {
        errorFns = [...errorFns, fn]
        withTask((t) => t.onError(() => fn()))
      },
    }
  },
}
