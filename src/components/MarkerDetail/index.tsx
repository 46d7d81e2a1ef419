/**
 * The detail of one marker, in a bottom popup that the map's panel shows: name, kind,
 * layer, coordinates, length or area (domain measure), field values, notes with photos, edit and
 * delete with a confirmation.
 */
import { Button, Cell, Dialog, Image, Tag } from '@nutui/nutui-react-taro'
import { Text, View } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import { lazy, Suspense, useState } from 'react'
import type { FieldValue, LayerField, Marker } from '../../../types/mapdata'
import { MAP_UI_MSG } from '../../domain/messages'
import { PERM } from '../../domain/permissions'
import { FEATURES, featureOpen } from '../../domain/moduleGate'
import { MARKER_TYPE_NAMES, formatArea, formatCoord, formatLength, measure, parsePoints } from '../../domain/points'
import { useStores } from '../../stores/context'
import { syncStores } from '../../stores/syncStores'
import { SYNC_MSG } from '../../domain/syncMessages'
import { DraggablePanel } from '../DraggablePanel'
import { NavigateButton } from '../NavigateButton'
import { markerNavPlace } from '../../domain/markerPlace'
import './index.scss'
import { MARKER_KIND, isArea, isPoint } from '../../domain/markerKinds'

// Notes (with the photo uploader and the platform's image picker) load when a detail first shows
// them, not with the map page (DESIGN 7: the /map JS budget).
const NoteList = lazy(() => import('../NoteList').then((m) => ({ default: m.NoteList })))
// The check-in sheet (camera, watermark, uploads) loads on the first 签到 tap.
const CheckInSheet = lazy(() => import('../CheckInSheet'))

const SHOWN_VERTICES = 5

function geometryOf(m: Marker) {
  const parsed = parsePoints(m.points)
  if (!parsed.ok) return { vertices: [] as string[], total: 0, measures: {} as { length?: number; area?: number } }
  const flat = parsed.parts.flat()
  return {
    vertices: flat.slice(0, SHOWN_VERTICES).map((p) => `${formatCoord(p.lng)}, ${formatCoord(p.lat)}`),
    total: flat.length,
    measures: measure(m.type, parsed.parts, m.radius, parsed.holes),
  }
}

function valueText(field: LayerField, v: FieldValue | undefined): string {
  if (v === null || v === undefined || v === '') return ''
  if (Array.isArray(v)) return field.kind === 'photo' ? '' : v.join('、')
  return String(v)
}

export const MarkerDetail = observer(function MarkerDetail() {
  const { markers, layers, fields, notes, navigate, map, app, session, sync } = useStores(syncStores)
  const [confirmDelete, setConfirmDelete] = useState(false)
  const [checkInAt, setCheckInAt] = useState<{ id: number; name: string } | null>(null)
  const m = markers.detail
  const layer = m ? layers.byId.get(m.layer_id) : undefined
  const geo = m ? geometryOf(m) : null
  const areaMarker = !!m && isArea(m.type)
  const editors = m ? sync.editorsOf(m.id) : []

  return (
    <DraggablePanel visible={markers.detailOpen && !!m} className='marker-detail' onClose={() => markers.closeDetail()}>
      {m && geo ? (
        <View className='marker-detail__body'>
          <View className='marker-detail__head'>
            <Text className='marker-detail__name'>{m.name}</Text>
            <Tag type='primary' className='marker-detail__kind'>
              {MARKER_TYPE_NAMES[m.type]}
            </Tag>
          </View>
          {editors.length ? <Text className='marker-detail__presence'>{SYNC_MSG.editing(editors)}</Text> : null}
          <View className='marker-detail__buttons'>
            <NavigateButton place={markerNavPlace(m, fields.fieldsOf(m.layer_id))} size='normal' className='marker-detail__navigate' />
            <Button fill='outline' type='primary' className='marker-detail__sign' onClick={() => setCheckInAt({ id: m.id, name: m.name })}>
              签到
            </Button>
            {layers.can(layer, PERM.MARKER_EDIT) ? (
              <Button
                type='primary'
                className='marker-detail__edit'
                onClick={() => {
                  markers.closeDetail()
                  navigate(`/addinfo?id=${m.id}`)
                }}
              >
                编辑标注
              </Button>
            ) : null}
            {layers.can(layer, PERM.MARKER_EDIT) ? (
              <Button fill='outline' type='primary' className='marker-detail__move' onClick={() => map.startEditGeometry(m)}>
                调整位置
              </Button>
            ) : null}
            {layers.can(layer, PERM.LAYER_SHARE) && featureOpen(FEATURES.share, session.user?.modules) ? (
              <Button fill='outline' type='primary' className='marker-detail__share' onClick={() => app.requestShare({ type: 2, ids: [m.id], name: m.name })}>
                分享
              </Button>
            ) : null}
            {layers.can(layer, PERM.MARKER_DELETE) ? (
              <Button type='danger' fill='outline' className='marker-detail__delete' onClick={() => setConfirmDelete(true)}>
                删除标注
              </Button>
            ) : null}
          </View>

          <Cell.Group className='marker-detail__cells'>
            <Cell title='图层' extra={layers.pathLabel(m.layer_id) || '—'} />
            <Cell
              title='坐标'
              extra={
                <View className='marker-detail__coords'>
                  {geo.vertices.map((v, i) => (
                    <Text key={i} className='marker-detail__coord'>
                      {v}
                    </Text>
                  ))}
                  {geo.total > SHOWN_VERTICES ? <Text className='marker-detail__coord muted'>共{geo.total}个点</Text> : null}
                </View>
              }
            />
            {isPoint(m.type) && m.style?.icon ? (
              <Cell title='图标' extra={<Image src={notes.photoUrl(m.style.icon)} width='32' height='32' mode='aspectFit' className='marker-detail__icon' />} />
            ) : null}
            {m.type === MARKER_KIND.circle ? <Cell title='半径' extra={formatLength(m.radius)} /> : null}
            {geo.measures.length !== undefined ? <Cell title={areaMarker ? '周长' : '长度'} extra={formatLength(geo.measures.length)} /> : null}
            {geo.measures.area !== undefined ? <Cell title='面积' extra={formatArea(geo.measures.area, app.area_unit)} /> : null}
            {fields.fieldsOf(m.layer_id).map((f) => {
              const v = m.fields?.[String(f.id)]
              if (f.kind === 'photo' && Array.isArray(v) && v.length)
                return (
                  <Cell
                    key={f.id}
                    title={f.name}
                    extra={
                      <View className='marker-detail__photos'>
                        {v.map((u) => (
                          <Image key={u} src={notes.photoUrl(u)} width='56' height='56' mode='aspectFill' className='marker-detail__photo' />
                        ))}
                      </View>
                    }
                  />
                )
              return <Cell key={f.id} title={f.name} extra={valueText(f, v) || '—'} />
            })}
            <Cell title='创建人' extra={m.creator_name || '—'} />
          </Cell.Group>

          {layers.can(layer, PERM.NOTE_LIST) || layers.can(layer, PERM.NOTE_ADD) ? (
            <View className='marker-detail__notes'>
              <Text className='marker-detail__section'>备注</Text>
              <Suspense fallback={<Text className='muted'>加载中…</Text>}>
                <NoteList markerId={m.id} layer={layer} />
              </Suspense>
            </View>
          ) : null}

          <Dialog
            className='dialog--destructive'
            title='删除标注'
            visible={confirmDelete}
            content={MAP_UI_MSG.deleteMarkerConfirm(m.name)}
            confirmText='删除'
            cancelText='取消'
            onConfirm={() => {
              setConfirmDelete(false)
              void markers.remove(m.id)
            }}
            onCancel={() => setConfirmDelete(false)}
          />
        </View>
      ) : null}
      {checkInAt ? (
        <Suspense fallback={null}>
          <CheckInSheet visible target={{ marker_id: checkInAt.id }} title={checkInAt.name} onDone={() => setCheckInAt(null)} onClose={() => setCheckInAt(null)} />
        </Suspense>
      ) : null}
    </DraggablePanel>
  )
})
