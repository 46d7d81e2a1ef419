/**
 * 导航 beside any place the app shows: hands the place (GCJ-02, its name and address) to the phone's
 * map through the directions store. Without usable coordinates there is nothing to navigate to, and
 * no button.
 */
import { Button } from '@nutui/nutui-react-taro'
import { observer } from 'mobx-react-lite'
import type { NavPlace } from '../../domain/directions'
import { DIRECTIONS_MSG } from '../../domain/directionsMessages'
import { useStores } from '../../stores/context'
import './index.scss'

export interface NavigateButtonProps {
  place: NavPlace | null
  /** Small in a list's row (a stop, a task's place); the size of the buttons beside it in a detail's row of actions. */
  size?: 'small' | 'normal'
  className?: string
}

export const NavigateButton = observer(function NavigateButton({ place, size = 'small', className }: NavigateButtonProps) {
  const { directions } = useStores()
  if (!place) return null
  return (
    <Button
      size={size}
      fill='outline'
      type='primary'
      className={`navigate-button ${className ?? ''}`}
      disabled={directions.opening}
      onClick={(e) => {
        // A card around it may open on a tap: this tap is only the button's.
        e?.stopPropagation?.()
        void directions.open(place)
      }}
    >
      {DIRECTIONS_MSG.button}
    </Button>
  )
})
