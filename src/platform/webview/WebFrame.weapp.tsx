/**
 * The mini-program shows external pages in its web-view, which fills the page (WeChat opens only
 * the business domains configured for the mini-program and says so itself for any other).
 */
import { WebView } from '@tarojs/components'
import type { WebFrameProps } from './types'

export function WebFrame({ url }: WebFrameProps) {
  return <WebView src={url} />
}
