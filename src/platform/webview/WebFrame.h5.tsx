/**
 * H5 shows external pages in a full-height iframe under a bar with the site's host and a link that
 * opens the page in the browser: many sites refuse to be framed, and an http page cannot be framed
 * by an https app.
 *
 * An iframe fires `load` even for the browser's own error page and never reports a failure, so the
 * address is also requested with a no-cors fetch: its response is opaque (nothing of another site is
 * read), but a page that cannot be reached at all (no network, unknown host, refused connection, an
 * http page under an https app) rejects it, and only then does /web show 页面无法打开.
 */
import { Text, View } from '@tarojs/components'
import { useEffect } from 'react'
import { APP_MSG } from '../../domain/appMessages'
import { hostOf } from '../../domain/web'
import type { WebFrameProps } from './types'
import './webFrame.scss'

export function WebFrame({ url, onError }: WebFrameProps) {
  useEffect(() => {
    let live = true
    fetch(url, { mode: 'no-cors', cache: 'no-store', credentials: 'omit', referrerPolicy: 'no-referrer' }).catch(() => {
      if (live) onError()
    })
    return () => {
      live = false
    }
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
        sandbox='allow-scripts allow-same-origin allow-forms allow-popups allow-popups-to-escape-sandbox allow-downloads'
      />
    </View>
  )
}
