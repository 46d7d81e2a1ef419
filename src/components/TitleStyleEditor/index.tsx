/**
 * The title style of a layer (SPEC 3: font_size, color, bg_color, padding, border_weight,
 * border_color), in a bottom popup with a live preview. Also exports the colour swatches that
 * /addinfo uses for marker colours.
 */
import { Button, InputNumber, Popup } from '@nutui/nutui-react-taro'
import { Text, View } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import { useEffect, useState } from 'react'
import type { TitleStyleLook } from '../../../types/mapdata'
import { useStores } from '../../stores/context'
import './index.scss'

export const SWATCHES = ['#165DFF', '#14C9C9', '#00B42A', '#F7BA1E', '#FF7D00', '#F53F3F', '#D91AD9', '#722ED1', '#1D2129', '#86909C', '#FFFFFF']

export function ColorSwatches({ value, onChange, label }: { value?: string; onChange: (c: string) => void; label: string }) {
  const current = (value ?? '').toUpperCase()
  return (
    <View className='swatches' aria-label={label}>
      {SWATCHES.map((c) => (
        <View key={c} className={`swatch ${current === c ? 'swatch--on' : ''}`} style={{ background: c }} aria-label={`${label} ${c}`} data-color={c} onClick={() => onChange(c)} />
      ))}
    </View>
  )
}

type StyleValue = TitleStyleLook

export interface TitleStyleEditorProps {
  visible: boolean
  layerId: number | null
  layerName: string
  onClose: () => void
}

export const TitleStyleEditor = observer(function TitleStyleEditor({ visible, layerId, layerName, onClose }: TitleStyleEditorProps) {
  const { layers } = useStores()
  const [style, setStyle] = useState<StyleValue>(() => layers.titleStyleFor(layerId))
  // The rev of the style when the editor opened goes with the save (types/sync.ts).
  const [rev, setRev] = useState<number | undefined>(undefined)
  useEffect(() => {
    if (!visible) return
    setStyle(layers.titleStyleFor(layerId))
    setRev(layers.titleStyles.find((s) => s.layer_id === layerId)?.rev)
  }, [visible, layerId, layers])
  const set = (patch: Partial<StyleValue>) => setStyle((s) => ({ ...s, ...patch }))

  const save = async () => {
    if (await layers.saveTitleStyle(layerId, style, rev)) onClose()
  }

  return (
    <Popup visible={visible} position='bottom' round closeable title={`标题样式 · ${layerName}`} onClose={onClose} className='title-style'>
      <View className='title-style__body'>
        <View className='title-style__preview'>
          <Text
            style={{
              fontSize: `${style.font_size}px`,
              color: style.color,
              background: style.bg_color,
              padding: `${style.padding}px ${style.padding * 2}px`,
              border: `${style.border_weight}px solid ${style.border_color}`,
              borderRadius: '4px',
            }}
          >
            {layerName || '标注名称'}
          </Text>
        </View>
        <View className='title-style__row'>
          <Text className='title-style__label'>字号</Text>
          <InputNumber value={style.font_size} min={10} max={40} onChange={(v) => set({ font_size: Number(v) })} />
        </View>
        <View className='title-style__label'>文字颜色</View>
        <ColorSwatches label='文字颜色' value={style.color} onChange={(c) => set({ color: c })} />
        <View className='title-style__label'>背景颜色</View>
        <ColorSwatches label='背景颜色' value={style.bg_color} onChange={(c) => set({ bg_color: c })} />
        <View className='title-style__row'>
          <Text className='title-style__label'>内边距</Text>
          <InputNumber value={style.padding} min={0} max={20} onChange={(v) => set({ padding: Number(v) })} />
        </View>
        <View className='title-style__row'>
          <Text className='title-style__label'>边框粗细</Text>
          <InputNumber value={style.border_weight} min={0} max={10} onChange={(v) => set({ border_weight: Number(v) })} />
        </View>
        <View className='title-style__label'>边框颜色</View>
        <ColorSwatches label='边框颜色' value={style.border_color} onChange={(c) => set({ border_color: c })} />
        <Button className='title-style__save' block type='primary' onClick={() => void save()}>
          保存样式
        </Button>
      </View>
    </Popup>
  )
})
