/** The map's marker search (the 搜索标注 bar): name, notes and field text, a page at a time; a result opens its marker. */
import { Button, Cell, Popup, SearchBar } from '@nutui/nutui-react-taro'
import { Text, View } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import { useState } from 'react'
import { MAP_UI_MSG } from '../../domain/messages'
import { MARKER_TYPE_NAMES } from '../../domain/points'
import { useStores } from '../../stores/context'

export interface SearchPanelProps {
  visible: boolean
  onClose: () => void
}

export const SearchPanel = observer(function SearchPanel({ visible, onClose }: SearchPanelProps) {
  const { markers, layers } = useStores()
  const [kw, setKw] = useState(markers.searchKw)

  return (
    <Popup visible={visible} position='top' className='map-search' onClose={onClose}>
      <View className='map-search__bar'>
        <SearchBar
          className='map-search__input'
          placeholder='搜索标注名称、备注、字段内容'
          value={kw}
          onChange={(v) => setKw(v)}
          onSearch={(v) => void markers.search(v)}
          onClear={() => markers.clearSearch()}
          right={
            <Text className='map-search__go' onClick={() => void markers.search(kw)}>
              搜索
            </Text>
          }
        />
        <Text className='map-search__cancel' onClick={onClose}>
          取消
        </Text>
      </View>
      <View className='map-search__results'>
        {markers.searched && !markers.searchResults.length ? <Text className='map-search__empty'>{MAP_UI_MSG.searchEmpty}</Text> : null}
        {markers.searchResults.map((m) => (
          <Cell
            key={m.id}
            clickable
            title={m.name}
            description={`${MARKER_TYPE_NAMES[m.type]} · ${layers.pathLabel(m.layer_id) || '图层'}`}
            onClick={() => {
              onClose()
              void markers.openDetail(m.id)
            }}
          />
        ))}
        {markers.canSearchMore ? (
          <Button className='map-search__more' block fill='none' loading={markers.searching} onClick={() => void markers.searchMore()}>
            加载更多
          </Button>
        ) : null}
        {markers.searched && markers.searchResults.length ? <Text className='map-search__total muted'>共{markers.searchTotal}个结果</Text> : null}
      </View>
    </Popup>
  )
})
