/**
 * The mini-program shows external pages in its web-view, which fills the page (WeChat opens only
 * the business domains configured for the mini-program and says so itself for any other). A page
 * that fails to load is reported through binderror so that /web can offer a retry.
 */
import { WebView } from '@tarojs/components'
import type { WebFrameProps } from './types'

export function WebFrame({ url, onError }: WebFrameProps) {
  return <WebView src={url} onError={onError} />
}
