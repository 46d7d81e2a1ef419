/**
 * H5 shows external pages in a full-height iframe under a bar with the site's host and a link that
 * opens the page in the browser: many sites refuse to be framed, and an http page cannot be framed
 * by an https app.
 */
import { Text, View } from '@tarojs/components'
import { APP_MSG } from '../../domain/appMessages'
import { hostOf } from '../../domain/web'
import type { WebFrameProps } from './types'
import './webFrame.scss'

export function WebFrame({ url }: WebFrameProps) {
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
