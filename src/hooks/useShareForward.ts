/**
 * A page that holds the share dialog answers WeChat's forward: the dialog's 发给微信好友 button
 * (an openType share button) forwards the share just made, with its card picture; the ··· menu
 * forwards the app. Tiny on purpose: the dialog itself loads lazily, this hook does not.
 */
import { useShareAppMessage } from '@tarojs/taro'
import { forwardFrom } from '../stores/createdShare'

export function useShareForward(): void {
  useShareAppMessage((res) => forwardFrom(res?.from))
}
