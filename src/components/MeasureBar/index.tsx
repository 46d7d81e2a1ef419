/**
 * The bar across the top of the map while measuring: 测距 or 测面积, the figure as the points come
 * (in the settings' area unit), what to tap next, and 撤销 / 清除 / 完成. The map's taps are the
 * points meanwhile (MapStore hands them to the measure store); nothing is saved.
 */
import { Button } from '@nutui/nutui-react-taro'
import { Text, View } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import type { MeasureMode } from '../../domain/measure'
import { MEASURE_MSG } from '../../domain/measureMessages'
import { useStores } from '../../stores/context'
import './index.scss'

const MODES: { mode: MeasureMode; label: string }[] = [
  { mode: 'length', label: MEASURE_MSG.lengthMode },
  { mode: 'area', label: MEASURE_MSG.areaMode },
]

export const MeasureBar = observer(function MeasureBar() {
  const { map } = useStores()
  const measure = map.measure
  const readout = measure.readout
  if (!readout) return null
  return (
    <View className='map-measure'>
      <View className='map-measure__modes'>
        {MODES.map(({ mode, label }) => (
          <Text key={mode} className={`map-measure__mode ${measure.mode === mode ? 'map-measure__mode--on' : ''}`} onClick={() => measure.start(mode)}>
            {label}
          </Text>
        ))}
      </View>
      {readout.figure ? (
        <View className='map-measure__result'>
          <Text className='map-measure__figure'>{readout.figure}</Text>
          {readout.detail ? <Text className='map-measure__detail'>{readout.detail}</Text> : null}
        </View>
      ) : null}
      <Text className='map-measure__hint'>{readout.hint}</Text>
      <View className='map-measure__buttons'>
        <Button size='small' fill='outline' className='map-measure__undo' disabled={measure.pointCount === 0} onClick={() => measure.undo()}>
          {MEASURE_MSG.undo}
        </Button>
        <Button size='small' fill='outline' className='map-measure__clear' disabled={measure.pointCount === 0} onClick={() => measure.clear()}>
          {MEASURE_MSG.clear}
        </Button>
        <Button size='small' type='primary' className='map-measure__done' onClick={() => measure.stop()}>
          {MEASURE_MSG.done}
        </Button>
      </View>
    </View>
  )
})
