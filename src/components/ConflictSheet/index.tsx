/**
 * The conflict sheet: a save refused because a teammate changed (or deleted) the same thing while
 * this phone edited it. Field by field, 对方 / 我的, with 保留对方的, 保留我的 (saved over the current
 * rev) or a pick per field and 合并保存. The form that saved keeps what was typed until a choice is made.
 */
import { Button, Popup } from '@nutui/nutui-react-taro'
import { Text, View } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import type { FieldValue, MarkerStyle } from '../../../types/mapdata'
import type { MarkerGeometry } from '../../domain/sync'
import { facetFieldId } from '../../domain/sync'
import { SYNC_FACET_LABELS, SYNC_KIND_NAMES, SYNC_MSG } from '../../domain/syncMessages'
import { MARKER_TYPE_NAMES, formatCoord, formatLength, parsePoints } from '../../domain/points'
import { FIELD_KIND_NAMES } from '../../stores/FieldStore'
import { useStores } from '../../stores/context'
import { syncStores } from '../../stores/syncStores'
import './index.scss'

export const ConflictSheet = observer(function ConflictSheet() {
  const { sync, layers, fields } = useStores(syncStores)
  const c = sync.conflict
  const kindName = c ? SYNC_KIND_NAMES[c.kind] : ''
  const layerId = Number((c?.theirs?.layer_id ?? c?.mine.layer_id ?? 0) as number)

  const label = (key: string): string => {
    const fid = facetFieldId(key)
    if (fid !== null) return fields.fieldsOf(layerId).find((f) => String(f.id) === fid)?.name ?? `字段${fid}`
    return SYNC_FACET_LABELS[key] ?? key
  }

  const text = (key: string, v: unknown): string => {
    if (v === undefined || v === null || v === '' || (Array.isArray(v) && !v.length)) return SYNC_MSG.empty
    if (key === 'layer_id' || key === 'parent_id') return Number(v) ? layers.pathLabel(Number(v)) || String(v) : '根目录'
    if (key === 'geometry') {
      const g = v as MarkerGeometry
      const parsed = parsePoints(g.points)
      const flat = parsed.ok ? parsed.parts.flat() : []
      const first = flat[0] ? `${formatCoord(flat[0].lng)}, ${formatCoord(flat[0].lat)}` : SYNC_MSG.empty
      return `${MARKER_TYPE_NAMES[g.type] ?? ''} ${first}${flat.length > 1 ? `（共${flat.length}个点）` : ''}${g.radius ? ` 半径${formatLength(g.radius)}` : ''}`
    }
    if (key === 'style') {
      const s = v as MarkerStyle & { width?: number }
      return [s.color ? `颜色 ${s.color}` : '', s.width ? `大小 ${s.width}` : '', s.icon ? '自定义图标' : '', s.dashed ? '虚线' : ''].filter(Boolean).join(' · ') || SYNC_MSG.empty
    }
    if (key === 'look') {
      const s = v as { font_size?: number; color?: string; bg_color?: string }
      return [s.font_size ? `字号 ${s.font_size}` : '', s.color ? `文字 ${s.color}` : '', s.bg_color ? `背景 ${s.bg_color}` : ''].filter(Boolean).join(' · ')
    }
    if (key === 'kind') return FIELD_KIND_NAMES[v as keyof typeof FIELD_KIND_NAMES] ?? String(v)
    if (key === 'required') return v ? '是' : '否'
    if (key === 'photos') return `${(v as string[]).length}张照片`
    if (Array.isArray(v)) return (v as FieldValue[]).map(String).join('、')
    return String(v)
  }

  return (
    <Popup visible={!!c} position='bottom' round closeable title={c?.theirs ? SYNC_MSG.conflictTitle : SYNC_MSG.deletedTitle} className='conflict-sheet' onClose={() => sync.discard()}>
      {c && !c.theirs ? (
        <View className='conflict-sheet__body'>
          <Text className='conflict-sheet__deleted'>{SYNC_MSG.deleted(kindName)}</Text>
          <View className='conflict-sheet__buttons'>
            <Button fill='outline' type='default' className='conflict-sheet__discard' onClick={() => sync.discard()}>
              {SYNC_MSG.discard}
            </Button>
            <Button type='primary' className='conflict-sheet__recreate' onClick={() => void sync.recreate()}>
              {SYNC_MSG.recreate}
            </Button>
          </View>
        </View>
      ) : null}
      {c && c.theirs ? (
        <View className='conflict-sheet__body'>
          <Text className='conflict-sheet__intro'>{SYNC_MSG.conflictIntro}</Text>
          <View className='conflict-sheet__rows'>
            {c.rows.map((r) => (
              <View key={r.key} className='conflict-row'>
                <Text className='conflict-row__label'>{label(r.key)}</Text>
                <View className='conflict-row__choices'>
                  {(['theirs', 'mine'] as const).map((side) => (
                    <View
                      key={side}
                      className={`conflict-row__choice conflict-row__choice--${side} ${c.picks[r.key] === side ? 'conflict-row__choice--on' : ''}`}
                      onClick={() => sync.pick(r.key, side)}
                    >
                      <Text className='conflict-row__side'>{side === 'theirs' ? SYNC_MSG.theirs : SYNC_MSG.mine}</Text>
                      <Text className='conflict-row__value'>{text(r.key, side === 'theirs' ? r.theirs : r.mine)}</Text>
                    </View>
                  ))}
                </View>
              </View>
            ))}
          </View>
          <View className='conflict-sheet__buttons'>
            <Button fill='outline' type='primary' className='conflict-sheet__theirs' onClick={() => sync.keepTheirs()}>
              {SYNC_MSG.keepTheirs}
            </Button>
            <Button fill='outline' type='primary' className='conflict-sheet__mine' onClick={() => void sync.keepMine()}>
              {SYNC_MSG.keepMine}
            </Button>
          </View>
          <Button block type='primary' className='conflict-sheet__merge' onClick={() => void sync.mergeSave()}>
            {SYNC_MSG.merge}
          </Button>
        </View>
      ) : null}
    </Popup>
  )
})

export default ConflictSheet
