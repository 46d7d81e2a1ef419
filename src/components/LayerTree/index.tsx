/**
 * The folder tree of the layer panel, drawn as a flat list of visible rows (cheap on slow phones):
 * expand/collapse folders, a show switch per layer or folder, marker counts, a 默认 pill on the layer
 * new markers of its kind go to (where the kind has a choice), and an actions button.
 */
import { ArrowDown, ArrowRight } from '@nutui/icons-react-taro'
import { Switch } from '@nutui/nutui-react-taro'
import { Text, View } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import type { Layer } from '../../../types/mapdata'
import { useStores } from '../../stores/context'
import { LAYER_TYPE_NAMES } from '../../stores/LayerStore'
import './index.scss'

export interface LayerTreeProps {
  onActions: (layer: Layer) => void
}

const TYPE_MARK: Record<number, string> = { 0: '', 1: '点', 2: '线', 3: '面' }

export const LayerTree = observer(function LayerTree({ onActions }: LayerTreeProps) {
  const { layers } = useStores()
  const rows = layers.rows

  return (
    <View className='layer-tree'>
      {rows.map((row) => {
        const l = row.layer
        return (
          <View key={l.id} className={`layer-row ${row.isFolder ? 'layer-row--folder' : ''}`} style={{ paddingLeft: `${24 + row.depth * 36}px` }}>
            <View className='layer-row__main' onClick={() => (row.isFolder ? layers.toggleOpen(l.id) : onActions(l))}>
              <View className='layer-row__arrow'>{row.isFolder ? row.open ? <ArrowDown size={12} color='#4E5969' /> : <ArrowRight size={12} color='#4E5969' /> : null}</View>
              {row.isFolder ? <View className='layer-row__folder-icon' /> : <Text className={`layer-row__type layer-row__type--${l.type}`}>{TYPE_MARK[l.type]}</Text>}
              <View className='layer-row__text'>
                <Text className='layer-row__name'>{l.name}</Text>
                <View className='layer-row__meta'>
                  {layers.showsDefaultBadge(l.id) ? <Text className='layer-row__default'>默认{LAYER_TYPE_NAMES[l.type]}</Text> : null}
                  <Text>
                    {row.isFolder ? '文件夹' : LAYER_TYPE_NAMES[l.type]} · {layers.markerCount(l.id)}个标注
                  </Text>
                </View>
              </View>
            </View>
            <Switch className='layer-row__switch' checked={layers.isShown(l.id)} onChange={(v) => void layers.setShown(l.id, v)} />
            <View className='layer-row__more' onClick={() => onActions(l)}>
              操作
            </View>
          </View>
        )
      })}
    </View>
  )
})
