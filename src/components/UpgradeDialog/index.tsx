/**
 * The upgrade prompt (SPEC 2 overlay 'new version found' with the version text, the update
 * notes, 'later' and 'upgrade now'; SPEC 4: either button stores today's date, in the store).
 * PageShell loads this file only when the prompt is due, so its code stays out of every page.
 */
import { Dialog } from '@nutui/nutui-react-taro'
import { ScrollView, Text, View } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import { APP_VERSION_STR } from '../../domain/upgrade'
import { UPGRADE_MSG } from '../../domain/upgradeMessages'
import { useStores } from '../../stores/context'
import './index.scss'

export default observer(function UpgradeDialog() {
  const { app } = useStores()
  const { show, version, notes } = app.app_upgrade
  return (
    <Dialog
      className='upgrade-dialog'
      title={UPGRADE_MSG.title}
      visible={show}
      closeOnOverlayClick={false}
      content={
        <View className='upgrade-dialog__body'>
          <Text className='upgrade-dialog__version'>{version}</Text>
          <Text className='upgrade-dialog__current muted'>{UPGRADE_MSG.currentVersion(APP_VERSION_STR)}</Text>
          <Text className='upgrade-dialog__notes-title'>{UPGRADE_MSG.notesTitle}</Text>
          <ScrollView className='upgrade-dialog__notes' scrollY>
            {notes.map((line, i) => (
              <Text key={i} className='upgrade-dialog__note'>
                {line}
              </Text>
            ))}
          </ScrollView>
        </View>
      }
      cancelText={UPGRADE_MSG.later}
      confirmText={UPGRADE_MSG.upgradeNow}
      onCancel={() => app.dismissUpgrade()}
      onConfirm={() => {
        void app.upgradeNow()
      }}
    />
  )
})
