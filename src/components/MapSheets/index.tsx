/** The map's two settings sheets, opened by a tap: their code and widgets stay out of the /map entry (see pages/map/onDemand). */
import { Button, Cell, Input, Popup, Radio, Switch } from '@nutui/nutui-react-taro'
import { Text, View } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import { MAP_UI_MSG } from '../../domain/messages'
import { MARKER_TYPES, MARKER_TYPE_NAMES } from '../../domain/points'
import { isTileSourceId } from '../../domain/tileSources'
import { useStores } from '../../stores/context'

export interface MapSheetProps {
  visible: boolean
  onClose: () => void
}

const STYLE_ROWS: { key: 'bg' | 'road' | 'building' | 'poi'; label: string }[] = [
  { key: 'bg', label: '底图' },
  { key: 'road', label: '道路' },
  { key: 'building', label: '建筑' },
  { key: 'poi', label: '地名标注' },
]

/** The base-map sheet: the layers and style elements this platform's map can switch (SPEC 3). */
export const BasemapSheet = observer(function BasemapSheet({ visible, onClose }: MapSheetProps) {
  const { app, platform } = useStores()
  const capabilities = platform.mapCapabilities
  const layers: { key: 'satellite_layer' | 'road_layer' | 'traffic_layer'; label: string; can: boolean }[] = [
    { key: 'satellite_layer', label: '卫星图', can: capabilities.satellite },
    { key: 'road_layer', label: '路网', can: capabilities.roadnet },
    { key: 'traffic_layer', label: '实时路况', can: capabilities.traffic },
  ]
  const shown = layers.filter((l) => l.can)
  const sources = capabilities.tileSources ?? []
  return (
    <Popup visible={visible} position='bottom' round closeable title='地图样式' className='basemap-sheet' onClose={onClose}>
      <Cell.Group>
        {sources.length ? (
          // A Cell with children shows only them: the label and the choice are its body.
          <Cell className='basemap-source'>
            <Text className='basemap-source__label'>{MAP_UI_MSG.tileSourceTitle}</Text>
            <Radio.Group className='basemap-source__choice' value={app.tile_source} direction='horizontal' onChange={(v) => isTileSourceId(v) && app.setTileSource(v)}>
              {sources.map((s) => (
                <Radio key={s.id} value={s.id} shape='button'>
                  {s.label}
                </Radio>
              ))}
            </Radio.Group>
          </Cell>
        ) : null}
        {shown.map((l) => (
          <Cell key={l.key} title={l.label} extra={<Switch checked={app[l.key]} onChange={(v) => app.setBaseLayer(l.key, v)} />} />
        ))}
        {STYLE_ROWS.filter((r) => capabilities.features.includes(r.key)).map((r) => (
          <Cell key={r.key} title={r.label} extra={<Switch checked={app.map_style[r.key]} onChange={(v) => app.setMapStyle(r.key, v)} />} />
        ))}
      </Cell.Group>
    </Popup>
  )
})

/** What the map draws: a keyword in the name and the kinds shown (SPEC 3 marker filter, kept on the phone). */
export const FilterSheet = observer(function FilterSheet({ visible, onClose }: MapSheetProps) {
  const { markers, map } = useStores()
  const f = markers.filter
  return (
    <Popup visible={visible} position='bottom' round closeable title='筛选标注' className='filter-sheet' onClose={onClose}>
      <View className='filter-sheet__body'>
        <Input className='filter-sheet__kw' placeholder='标注名称包含的文字' value={f.kw} onChange={(v) => markers.setFilterKw(v)} clearable />
        <Cell.Group>
          {MARKER_TYPES.map((t) => (
            <Cell key={t} title={MARKER_TYPE_NAMES[t]} extra={<Switch checked={f.show[t] !== false} onChange={(v) => markers.setKindShown(t, v)} />} />
          ))}
        </Cell.Group>
        <Text className='filter-sheet__count muted'>
          视野内 {map.drawList.pointsInView}个点 · {map.drawList.shapes.length}条线/面
        </Text>
        <Button block fill='outline' disabled={!markers.filterActive} onClick={() => markers.resetFilter()}>
          清除筛选
        </Button>
      </View>
    </Popup>
  )
})
