/**
 * SPEC 4/8 location-permission dialog '权限错误': shown on any page where the user asked for their
 * position (locate on the map, "my position" on /route/add and /addinfo, a check-in) and location
 * access is refused. 去授权 opens the setting where access is granted; 取消 leaves the app usable.
 * PageShell loads it only when it is due.
 */
import { Dialog } from '@nutui/nutui-react-taro'
import { observer } from 'mobx-react-lite'
import { MAP_UI_MSG, MSG } from '../../domain/messages'
import { useStores } from '../../stores/context'

function LocationPermissionDialog() {
  const { tracker } = useStores()
  return (
    <Dialog
      className='location-permission'
      title={MSG.permissionError}
      visible={tracker.showPermissionDialog}
      content={MAP_UI_MSG.locationPermission}
      confirmText='去授权'
      cancelText='取消'
      onConfirm={() => void tracker.openSetting()}
      onCancel={() => tracker.closePermissionDialog()}
    />
  )
}

export default observer(LocationPermissionDialog)
