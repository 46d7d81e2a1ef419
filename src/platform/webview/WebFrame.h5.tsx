/**
 * H5 shows external pages in a full-height iframe under a bar with the site's host and a link that
 * opens the page in the browser: many sites refuse to be framed, and an http page cannot be framed
 * by an https app.
 *
 * An iframe reports no failure: it fires `load` even for the browser's own error page, and a
 * check of the address from here is refused by the app's Content-Security-Policy (connect-src
 * 'self'). The failure known for certain is having no network, when the frame opens or before it
 * has loaded: only then does /web show 页面无法打开; any other failure shows inside the frame,
 * under the page's header (back) and the bar's 在浏览器中打开.
 */
import { Text, View } from '@tarojs/components'
import { useEffect, useRef } from 'react'
import { APP_MSG } from '../../domain/appMessages'
import { hostOf } from '../../domain/web'
import type { WebFrameProps } from './types'
import './webFrame.scss'

export function WebFrame({ url, onError }: WebFrameProps) {
  const loaded = useRef(false)
  useEffect(() => {
    if (!navigator.onLine) {
      onError()
      return
    }
    const offline = () => {
      if (!loaded.current) onError()
    }
    window.addEventListener('offline', offline)
    return () => window.removeEventListener('offline', offline)
  }, [url, onError])

  return (
    <View className='web-frame'>
      <View className='web-frame__bar'>
        <Text className='web-frame__host'>{hostOf(url)}</Text>
        <a className='web-frame__open' href={url} target='_blank' rel='noopener noreferrer'>
          {APP_MSG.webOpenInBrowser}
        </a>
      </View>
      <Text className='web-frame__hint'>{APP_MSG.webFrameHint}</Text>
      <iframe
        className='web-frame__iframe'
        src={url}
        title={hostOf(url)}
        referrerPolicy='no-referrer'
        onLoad={() => {
          loaded.current = true
        }}
        sandbox='allow-scripts allow-same-origin allow-forms allow-popups allow-popups-to-escape-sandbox allow-downloads'
      />
    </View>
  )
}
