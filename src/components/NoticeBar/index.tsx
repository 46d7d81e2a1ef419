/** The coloured top bar of SPEC 4: one notice at a time, 3000 ms by default (timed by the store), click dismisses; an action, when the notice has one, at its end. */
import { Notify } from '@nutui/nutui-react-taro'
import { Text } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import { NOTICE_COLORS } from '../../domain/notice'
import { useStores } from '../../stores/context'

export const NoticeBar = observer(function NoticeBar() {
  const { app } = useStores()
  const notice = app.currentNotice
  if (!notice) return null
  const colors = NOTICE_COLORS[notice.type]
  return (
    <Notify
      key={notice.id}
      visible
      position='top'
      distance={0}
      navHeight={0}
      duration={0}
      className={`notice-bar notice-bar--${notice.type}`}
      style={{ background: colors.bg, color: colors.color, left: 0, right: 0, width: '100%', borderRadius: 0, zIndex: 3000 }}
      onClick={() => app.dismiss(notice.id)}
      onClose={() => app.dismiss(notice.id)}
    >
      {notice.text}
      {notice.action ? (
        <Text
          className='notice-bar__action'
          onClick={(e) => {
            // The bar's own click dismisses; the action does that and more.
            e.stopPropagation()
            app.dismiss(notice.id)
            notice.action?.run()
          }}
        >
          {notice.action.label}
        </Text>
      ) : null}
    </Notify>
  )
})
