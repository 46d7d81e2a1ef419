/**
 * /addinfo: create or edit a marker of any kind. The form state is a MarkerDraft; the
 * rules (geometry, fields, names) are the domain's, checked by the store before the server.
 * Query: ?id= edits; ?type=&points=&layer_id= starts a new marker (a link); ?type=&drawn=1 starts
 * one from the geometry the map drew, handed over by MarkerStore.handToForm.
 */
import { Button, Cell, Input, InputNumber, Picker, Radio, Switch } from '@nutui/nutui-react-taro'
import { Text, View } from '@tarojs/components'
import { useRouter } from '@tarojs/taro'
import { observer } from 'mobx-react-lite'
import { useEffect, useState } from 'react'
import type { MarkerType } from '../../../types/mapdata'
import { FieldValueInput } from '../../components/FieldValueInput'
import { IconPicker } from '../../components/IconPicker'
import { NoteList } from '../../components/NoteList'
import { PageShell } from '../../components/PageShell'
import { ColorSwatches } from '../../components/TitleStyleEditor'
import { DRAWN_PARAM } from '../../domain/constants'
import { MARKER_NAME_MAX } from '../../domain/markers'
import { MAP_UI_MSG } from '../../domain/messages'
import { PERM } from '../../domain/permissions'
import { MARKER_TYPES, MARKER_TYPE_NAMES, formatArea, formatCoord, formatLength, measure, readGeometry } from '../../domain/points'
import { useStores } from '../../stores/context'
import { syncStores } from '../../stores/syncStores'
import { ConflictSheet } from '../../components/ConflictSheet'
import { MarkerDraft } from '../../stores/MarkerDraft'
import './index.scss'
import { MARKER_KIND, isArea, isPoint } from '../../domain/markerKinds'

function param(v: string | undefined): string {
  if (!v) return ''
  try {
    return v.includes('%') ? decodeURIComponent(v) : v
  } catch {
    return v
  }
}

const VERTEX_TITLE: Record<MarkerType, string> = { 0: '位置', 1: '线的顶点', 2: '线的顶点', 3: '面的顶点', 4: '矩形的两个对角点', 5: '圆心', 6: '多面的顶点' }

const AddInfoForm = observer(function AddInfoForm() {
  const root = useStores(syncStores)
  const { layers, markers, fields, app, tracker, sync } = root
  const router = useRouter()
  const [draft] = useState(() => new MarkerDraft(root))
  const [ready, setReady] = useState(false)
  const [coord, setCoord] = useState('')
  const [pickLayer, setPickLayer] = useState(false)
  const [locating, setLocating] = useState(false)
  const [saving, setSaving] = useState(false)
  // Photo fields still uploading: a marker saved now would be saved without those photos.
  const [uploadingFields, setUploadingFields] = useState<ReadonlySet<number>>(new Set())
  const setFieldUploading = (id: number, busy: boolean) =>
    setUploadingFields((prev) => {
      if (prev.has(id) === busy) return prev
      const next = new Set(prev)
      if (busy) next.add(id)
      else next.delete(id)
      return next
    })

  useEffect(() => {
    void (async () => {
      if (!layers.loaded) await layers.load()
      const id = Number(param(router.params.id))
      if (id > 0) {
        const m = markers.find(id) ?? (await markers.getById(id))
        if (m) draft.startEdit(m)
      } else {
        // Opened from a drawing on the map, the form takes its parts as drawn; a link gives points in the query.
        const drawn = router.params[DRAWN_PARAM] ? markers.takeDrawn() : null
        const t = drawn?.type ?? Number(param(router.params.type))
        const type = (MARKER_TYPES.includes(t as MarkerType) ? t : 0) as MarkerType
        draft.startNew(type, {
          layerId: Number(param(router.params.layer_id)) || undefined,
          parts: drawn?.parts,
          points: param(router.params.points) || undefined,
          radius: (drawn ? drawn.radius : Number(param(router.params.radius))) || undefined,
        })
      }
      setReady(true)
    })()
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the page's parameters are read once, when it opens
  }, [])

  useEffect(() => {
    if (draft.layer_id) void fields.ensure(draft.layer_id)
  }, [draft.layer_id, fields])

  // Teammates see who edits this marker while the form is open.
  useEffect(() => {
    if (!ready || !draft.id) return
    sync.setFormMarker(draft.id)
    return () => sync.setFormMarker(null)
  }, [ready, draft.id, sync])

  if (!ready) return <View className='addinfo-loading muted'>加载中…</View>

  const allowed = layers.addableFor(draft.type)
  const layer = layers.byId.get(draft.layer_id)
  const layerFields = draft.layer_id ? fields.fieldsOf(draft.layer_id) : []
  const single = draft.maxVertices === 1
  const geometry = readGeometry(draft.type, draft.points, draft.radius)
  const m = geometry.ok ? measure(draft.type, geometry.parts, draft.radius, geometry.holes) : {}

  const warn = (msg: string | null) => {
    if (msg) app.notify(msg, 'warning')
  }

  const addTyped = () => {
    const problem = draft.addVertexText(coord)
    warn(problem)
    if (!problem) setCoord('')
  }

  const fillMyPosition = async () => {
    setLocating(true)
    // Through the tracker: a refusal shows the 权限错误 dialog, any other failure says so.
    const p = await tracker.locateNow()
    setLocating(false)
    if (p) warn(draft.addVertex({ lng: p.lng, lat: p.lat }))
  }

  const save = async () => {
    if (saving) return
    setSaving(true)
    const saved = await draft.save()
    setSaving(false)
    if (saved) {
      markers.showDetail(saved)
      // Back to the map that opened this form; opened directly, go to the map instead.
      root.navigateBack('/map')
    }
  }

  return (
    <View className='addinfo'>
      <Cell.Group title='类型' className='addinfo-group'>
        <View className='addinfo-kinds'>
          <Radio.Group value={draft.type} direction='horizontal' onChange={(v) => draft.setType(Number(v) as MarkerType)}>
            {MARKER_TYPES.map((t) => (
              <Radio key={t} value={t} shape='button' className='addinfo-kind'>
                {MARKER_TYPE_NAMES[t]}
              </Radio>
            ))}
          </Radio.Group>
        </View>
      </Cell.Group>

      {/* The name row below draws its own top border: no Cell divider on top of it. */}
      <Cell.Group title='基本信息' className='addinfo-group' divider={false}>
        <Cell
          title='图层'
          clickable={allowed.length > 0}
          extra={layer ? layers.pathLabel(layer.id) : allowed.length ? '请选择图层' : '无可用图层'}
          onClick={() => allowed.length && setPickLayer(true)}
        />
        {!allowed.length ? <Text className='addinfo-warning'>{MAP_UI_MSG.noLayerForKind}</Text> : null}
        <View className='addinfo-row'>
          <Text className='addinfo-label'>名称</Text>
          <Input className='addinfo-input' placeholder='请输入标注名称' value={draft.name} maxLength={MARKER_NAME_MAX} onChange={(v) => draft.setName(v)} />
        </View>
      </Cell.Group>

      <Cell.Group title={VERTEX_TITLE[draft.type]} className='addinfo-group'>
        <View className='addinfo-geo'>
          {draft.parts.map((part, pi) => (
            <View key={pi} className={`addinfo-part ${draft.type === MARKER_KIND.multiPolygon && pi === draft.activePart ? 'addinfo-part--active' : ''}`}>
              {draft.type === MARKER_KIND.multiPolygon ? (
                <View className='addinfo-part__head' onClick={() => draft.selectPart(pi)}>
                  <Text>
                    第{pi + 1}部分（{part.length}个点）{pi === draft.activePart ? ' · 正在编辑' : ''}
                  </Text>
                  {draft.parts.length > 1 ? (
                    <Text className='addinfo-remove' onClick={() => draft.removePart(pi)}>
                      删除此部分
                    </Text>
                  ) : null}
                </View>
              ) : null}
              {part.map((p, i) => (
                <View key={`${pi}-${i}`} className='addinfo-vertex'>
                  <Text className='addinfo-vertex__text'>
                    {single ? '' : `${i + 1}. `}
                    {formatCoord(p.lng)}, {formatCoord(p.lat)}
                  </Text>
                  <Text className='addinfo-remove' onClick={() => draft.removeVertex(pi, i)}>
                    删除
                  </Text>
                </View>
              ))}
            </View>
          ))}
          {draft.vertexCount === 0 ? <Text className='addinfo-hint'>还没有坐标：输入“经度,纬度”或使用我的位置</Text> : null}
          <View className='addinfo-coord'>
            <Input className='addinfo-coord__input' placeholder='经度,纬度' value={coord} onChange={(v) => setCoord(v)} />
            <Button size='small' type='primary' fill='outline' onClick={addTyped}>
              {single ? '设为此坐标' : '添加坐标'}
            </Button>
          </View>
          <View className='addinfo-geo__buttons'>
            <Button size='small' loading={locating} onClick={() => void fillMyPosition()}>
              使用我的位置
            </Button>
            {draft.type === MARKER_KIND.multiPolygon ? (
              <Button size='small' onClick={() => draft.addPart()}>
                新增一部分
              </Button>
            ) : null}
          </View>
          {draft.type === MARKER_KIND.circle ? (
            <View className='addinfo-row'>
              <Text className='addinfo-label'>半径（米）</Text>
              <Input className='addinfo-input' type='digit' placeholder='请输入半径（米）' value={draft.radius ? String(draft.radius) : ''} onChange={(v) => draft.setRadius(Number(v))} />
            </View>
          ) : null}
          {m.length !== undefined || m.area !== undefined ? (
            <Text className='addinfo-measure'>
              {m.length !== undefined ? `${isArea(draft.type) ? '周长' : '长度'} ${formatLength(m.length)}` : ''}
              {m.area !== undefined ? `${m.length !== undefined ? '　' : ''}面积 ${formatArea(m.area, root.app.area_unit)}` : ''}
            </Text>
          ) : null}
        </View>
      </Cell.Group>

      <Cell.Group title='样式' className='addinfo-group'>
        <View className='addinfo-style'>
          <Text className='addinfo-label'>颜色</Text>
          <ColorSwatches label='颜色' value={draft.style.color} onChange={(c) => draft.setColor(c)} />
          {isPoint(draft.type) ? (
            <>
              <Text className='addinfo-label'>图标</Text>
              <IconPicker value={draft.style.icon} color={draft.style.color} onChange={(url) => draft.setIcon(url)} />
            </>
          ) : null}
          <View className='addinfo-row addinfo-row--plain'>
            <Text className='addinfo-label'>{isPoint(draft.type) ? '大小' : '线宽'}</Text>
            <InputNumber value={draft.width} min={1} max={isPoint(draft.type) ? 96 : 20} onChange={(v) => draft.setWidth(Number(v))} />
          </View>
          {!isPoint(draft.type) ? (
            <View className='addinfo-row addinfo-row--plain'>
              <Text className='addinfo-label'>虚线</Text>
              <Switch checked={draft.dashed} disabled={draft.type === MARKER_KIND.multiPolygon} onChange={(v) => draft.setDashed(v)} />
            </View>
          ) : null}
        </View>
      </Cell.Group>

      {layerFields.length ? (
        <Cell.Group title='字段' className='addinfo-group'>
          {layerFields.map((f) => (
            <FieldValueInput key={f.id} field={f} value={draft.fields[String(f.id)]} onChange={(v) => draft.setFieldValue(f.id, v)} onBusyChange={(busy) => setFieldUploading(f.id, busy)} />
          ))}
        </Cell.Group>
      ) : null}

      {draft.id && (layers.can(layer, PERM.NOTE_LIST) || layers.can(layer, PERM.NOTE_ADD)) ? (
        <Cell.Group title='备注' className='addinfo-group'>
          <View className='addinfo-notes'>
            <NoteList markerId={draft.id} layer={layer} />
          </View>
        </Cell.Group>
      ) : null}

      <View className='addinfo-footer'>
        <Button block type='primary' loading={saving || uploadingFields.size > 0} disabled={uploadingFields.size > 0} onClick={() => void save()}>
          {draft.id ? '保存修改' : '保存标注'}
        </Button>
      </View>

      <ConflictSheet />
      <Picker
        title='选择图层'
        visible={pickLayer}
        options={[allowed.map((l) => ({ label: layers.pathLabel(l.id), value: l.id }))]}
        value={draft.layer_id ? [draft.layer_id] : undefined}
        onClose={() => setPickLayer(false)}
        onConfirm={(_o, values) => {
          if (values[0]) draft.setLayer(Number(values[0]))
          setPickLayer(false)
        }}
      />
    </View>
  )
})

function AddInfoPage() {
  return (
    <PageShell className='addinfo-page'>
      <AddInfoForm />
    </PageShell>
  )
}

export default observer(AddInfoPage)
