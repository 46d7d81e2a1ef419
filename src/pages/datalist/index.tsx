/**
 * /datalist?layer_id=: a layer's data list. One row per marker (name with its kind's colour, each
 * custom field in the layer's order, notes count, last editor and time), search, per-field filters,
 * sort by any column, 选择 mode (or a long press), 全选 and the bulk actions.
 *
 * Only the rows in view are rendered (Taro's VirtualList): a layer of 5,000 never makes 5,000 row
 * nodes nor one setData of them all. The header sits above the list, so it stays while rows scroll;
 * the name column stays while the others move sideways a few columns at a time (the ‹ › buttons or a
 * swipe on the header): one small re-render of the rows in view, where a second scroll view kept in
 * step with the first would redraw on every frame of a cheap phone.
 */
import { ActionSheet, Button, Checkbox, Dialog, Input, Popup, Radio, SearchBar } from '@nutui/nutui-react-taro'
import VirtualList from '@tarojs/components-advanced/dist/components/virtual-list'
import { Text, View } from '@tarojs/components'
import { useRouter } from '@tarojs/taro'
import { observer } from 'mobx-react-lite'
import { createContext, lazy, Suspense, useContext, useEffect, useMemo, useRef, useState } from 'react'
import type { DataListFilter, DataListRow, DataListSortKey } from '../../../types/datalist'
import type { ExportFormat, FieldValue, FileCrs, LayerField } from '../../../types/mapdata'
import { FieldValueInput } from '../../components/FieldValueInput'
import { PageShell } from '../../components/PageShell'
import { FILTER_OPS, filterLabel } from '../../domain/dataList'
import { DATA_LIST_MSG } from '../../domain/dataListMessages'
import { DEFAULT_MARKER_COLOR } from '../../domain/constants'
import { CRS_CHOICES, EXPORT_FORMAT_CHOICES } from '../../domain/formats/choices'
import { MAP_UI_MSG } from '../../domain/messages'
import { PERM } from '../../domain/permissions'
import { dateTime } from '../../domain/time'
import { useStores } from '../../stores/context'
import { dataListStores } from '../../stores/dataListStores'
import { shareStores } from '../../stores/shareStores'
import { syncStores } from '../../stores/syncStores'
import './index.scss'

const ShareDialog = lazy(() => import('../../components/ShareDialog').then((m) => ({ default: m.ShareDialog })))

/** Row height in px: VirtualList places rows by it, and each row's style says the same. */
const ROW_HEIGHT = 52
const NAME_WIDTH = 132
const CELL_WIDTH = 96
/** Columns besides the name shown at once; the rest are a ‹ › away. */
const COLUMNS_IN_VIEW = 2

interface Column {
  key: DataListSortKey
  title: string
  text: (row: DataListRow) => string
}

function valueText(v: FieldValue | undefined): string {
  if (v === undefined || v === null || v === '') return ''
  if (Array.isArray(v)) return v.length ? `${v.length}张` : ''
  return String(v)
}

function columnsOf(fields: LayerField[]): Column[] {
  return [
    ...fields.map((f) => ({ key: `field:${f.id}` as DataListSortKey, title: f.name, text: (r: DataListRow) => valueText(r.fields[String(f.id)]) })),
    { key: 'notes', title: DATA_LIST_MSG.notes, text: (r) => String(r.notes_count) },
    { key: 'edited_at', title: DATA_LIST_MSG.editor, text: (r) => `${r.editor_name} ${dateTime(r.edited_at).slice(5, 16)}` },
  ]
}

const STYLE_COLORS = ['#165DFF', '#00B42A', '#FF7D00', '#F53F3F', '#86909C', '#722ED1']
const STYLE_SIZES = [24, 32, 40]

/** The columns in view, for the rows (VirtualList gives its item component only the rows). */
const ColumnsInView = createContext<Column[]>([])

/** One row: only those in view exist. */
const Row = observer(function Row({ index, data, id }: { id: string; index: number; data: DataListRow[] }) {
  const { dataList: list } = useStores(dataListStores)
  const inView = useContext(ColumnsInView)
  const row = data[index]
  const picked = list.isSelected(row.id)
  return (
    <View
      id={id}
      className={`datalist-row ${picked ? 'datalist-row--picked' : ''}`}
      style={{ height: `${ROW_HEIGHT}px` }}
      onClick={() => (list.selecting ? list.toggle(row.id) : void list.locate(row.id))}
      onLongPress={() => list.pickFirst(row.id)}
    >
      <View className='datalist-cell datalist-cell--name' style={{ width: `${NAME_WIDTH}px` }}>
        {list.selecting ? <Checkbox className='datalist-check' checked={picked} /> : null}
        <View className='datalist-kind' style={{ background: row.style.color ?? DEFAULT_MARKER_COLOR, borderRadius: row.type === 0 ? '50%' : '2px' }} />
        <Text className='datalist-name'>{row.name}</Text>
      </View>
      {inView.map((c) => (
        <Text key={c.key} className='datalist-cell' style={{ width: `${CELL_WIDTH}px` }}>
          {c.text(row)}
        </Text>
      ))}
      {!list.selecting ? (
        <Text
          className='datalist-locate'
          onClick={(e) => {
            e.stopPropagation()
            void list.locate(row.id)
          }}
        >
          {DATA_LIST_MSG.locate}
        </Text>
      ) : null}
    </View>
  )
})

type Sheet = null | 'export' | 'set_field' | 'set_style' | 'move' | 'delete' | 'filter'

const DataList = observer(function DataList() {
  const root = useStores(dataListStores, syncStores, shareStores)
  const { dataList: list, layers, app } = root
  const router = useRouter()
  const layerId = Number(router.params.layer_id) || 0
  const [firstColumn, setFirstColumn] = useState(0)
  const [sheet, setSheet] = useState<Sheet>(null)
  // Its own state: the action sheet's popup reports its closing as a cancel, which would undo the pick of the next form.
  const [actionsOpen, setActionsOpen] = useState(false)
  const [filterField, setFilterField] = useState<LayerField | null>(null)
  const [fieldId, setFieldId] = useState<number>(0)
  const [value, setValue] = useState<FieldValue>(null)
  const [color, setColor] = useState<string>('')
  const [size, setSize] = useState<number>(0)
  const [target, setTarget] = useState<number>(0)
  const [kw, setKw] = useState('')
  const [format, setFormat] = useState<ExportFormat>('geojson')
  const [crs, setCrs] = useState<FileCrs>('wgs84')
  const [saved, setSaved] = useState<{ out: { name: string }; share: () => Promise<void> } | null>(null)
  const swipeFrom = useRef<number | null>(null)
  // Touch the live sync store so that teammates' changes reach the list on a page opened directly.
  void root.sync

  useEffect(() => {
    if (layerId) void list.open(layerId).then(() => setKw(list.query.kw ?? ''))
  }, [layerId, list])

  const layer = layers.byId.get(layerId)
  const columns = useMemo(() => columnsOf(list.fields), [list.fields])
  const inView = columns.slice(firstColumn, firstColumn + COLUMNS_IN_VIEW)
  const canList = !!layer && layers.can(layer, PERM.LAYER_DATA_LIST)
  const shiftColumns = (by: number) => setFirstColumn((c) => Math.max(0, Math.min(Math.max(0, columns.length - COLUMNS_IN_VIEW), c + by)))
  const listHeight = Math.max(240, root.platform.screen.windowHeight() - (list.selecting ? 250 : 180) - (list.query.filters?.length ? 40 : 0))
  const sameKind = layers.layers.filter((l) => l.type === layer?.type && l.id !== layerId && layers.can(l, PERM.MARKER_ADD))
  const n = list.selectedCount

  if (layers.loaded && !canList) return <Text className='datalist-empty'>{DATA_LIST_MSG.noPermission}</Text>

  const sortMark = (key: DataListSortKey) => (list.query.sort?.key === key ? (list.query.sort.dir === 'asc' ? ' ↑' : ' ↓') : '')

  const confirmText = (): string => {
    switch (sheet) {
      case 'set_field': {
        const f = list.fields.find((x) => x.id === fieldId)
        return f ? DATA_LIST_MSG.confirmSetField(n, f.name, valueText(value)) : DATA_LIST_MSG.pickField
      }
      case 'set_style':
        return DATA_LIST_MSG.confirmStyle(n)
      case 'move':
        return DATA_LIST_MSG.confirmMove(n, layers.byId.get(target)?.name ?? '')
      case 'delete':
        return DATA_LIST_MSG.confirmDelete(n)
      default:
        return ''
    }
  }

  const doExport = async () => {
    setSheet(null)
    const file = await list.exportPicked(format, crs)
    if (!file) return
    try {
      const files = await root.platform.files()
      const out = await files.saveTextFile(file)
      // WeChat sends a saved file only from inside a tap: a second dialog offers it.
      if (out.needsShare) setSaved({ out, share: () => files.shareSavedFile(out) })
      else app.notify(MAP_UI_MSG.exportSaved(out.name), 'success')
    } catch {
      app.notify(MAP_UI_MSG.fileSaveFailed, 'danger')
    }
  }

  const runAction = async () => {
    const which = sheet
    setSheet(null)
    if (which === 'set_field') {
      if (!fieldId) return app.notify(DATA_LIST_MSG.pickField, 'warning')
      await list.runBulk({ action: 'set_field', field_id: fieldId, value })
    } else if (which === 'set_style') {
      await list.runBulk({ action: 'set_style', style: { ...(color ? { color } : {}), ...(size ? { size } : {}) } })
    } else if (which === 'move') {
      if (!target) return app.notify(DATA_LIST_MSG.pickLayer, 'warning')
      await list.runBulk({ action: 'move', to_layer_id: target })
    } else if (which === 'delete') {
      await list.runBulk({ action: 'delete' })
    }
  }

  const actions: { [key: string]: string | boolean; key: string; name: string }[] = [
    { key: 'set_field', name: DATA_LIST_MSG.actions.set_field },
    { key: 'set_style', name: DATA_LIST_MSG.actions.set_style },
    { key: 'move', name: DATA_LIST_MSG.actions.move },
    { key: 'export', name: DATA_LIST_MSG.actions.export },
    { key: 'share', name: DATA_LIST_MSG.actions.share },
    { key: 'show_on_map', name: DATA_LIST_MSG.actions.show_on_map },
    { key: 'delete', name: DATA_LIST_MSG.actions.delete, danger: true },
  ]

  const onPickAction = (key: string) => {
    setActionsOpen(false)
    if (n === 0) return app.notify(DATA_LIST_MSG.pickSomething, 'warning')
    if (key === 'share') {
      setSheet(null)
      const picked = list.pickedRows
      return root.shares.open(
        2,
        picked.map((r) => r.id),
        picked[0]?.name,
      )
    }
    if (key === 'show_on_map') {
      setSheet(null)
      return void list.showOnMap()
    }
    if ((key === 'set_field' || key === 'set_style' || key === 'move' || key === 'delete') && (list.offlineCopy || root.offlineSink?.offline())) {
      setSheet(null)
      return app.notify(DATA_LIST_MSG.offlineBulk, 'warning')
    }
    if (key === 'move' && sameKind.length === 0) return app.notify(DATA_LIST_MSG.noTargetLayer, 'warning')
    setSheet(key as Sheet)
  }

  return (
    <View className='datalist'>
      <View className='datalist-top'>
        <SearchBar
          className='datalist-search'
          value={kw}
          placeholder={DATA_LIST_MSG.searchPlaceholder}
          onChange={(v: string) => {
            setKw(v)
            list.setKw(v)
          }}
        />
        <Button size='small' fill='outline' className='datalist-top__btn' onClick={() => setSheet('filter')}>
          {DATA_LIST_MSG.filter}
        </Button>
        <Button size='small' type={list.selecting ? 'primary' : 'default'} className='datalist-top__btn' onClick={() => list.setSelecting(!list.selecting)}>
          {list.selecting ? DATA_LIST_MSG.cancel : DATA_LIST_MSG.select}
        </Button>
      </View>

      <View className='datalist-count'>
        <Text className='datalist-count__text'>{list.countLine}</Text>
        {list.filtered ? (
          <Text
            className='datalist-count__clear'
            onClick={() => {
              setKw('')
              list.clearFilters()
            }}
          >
            {DATA_LIST_MSG.clearFilters}
          </Text>
        ) : null}
      </View>

      {list.query.filters?.length ? (
        <View className='datalist-chips'>
          {list.query.filters.map((f) => {
            const field = list.fields.find((x) => x.id === f.field_id)
            return (
              <Text key={f.field_id} className='datalist-chip' onClick={() => list.setFilter(f.field_id, null)}>
                {filterLabel(f, field?.name ?? '')} ✕
              </Text>
            )
          })}
        </View>
      ) : null}

      {list.offlineCopy ? <Text className='datalist-notice'>{DATA_LIST_MSG.offlineCopy}</Text> : null}
      {list.stale.length ? (
        <View className='datalist-notice datalist-notice--warn'>
          <Text>{DATA_LIST_MSG.staleRows(list.stale.length)}</Text>
          <Text className='datalist-notice__act' onClick={() => void list.reloadStale()}>
            {DATA_LIST_MSG.reloadStale}
          </Text>
        </View>
      ) : null}

      <View
        className='datalist-head'
        onTouchStart={(e) => (swipeFrom.current = (e as unknown as TouchEvent).touches[0]?.clientX ?? null)}
        onTouchEnd={(e) => {
          const from = swipeFrom.current
          const to = (e as unknown as TouchEvent).changedTouches[0]?.clientX
          swipeFrom.current = null
          if (from !== null && to !== undefined && Math.abs(to - from) > 40) shiftColumns(to < from ? COLUMNS_IN_VIEW : -COLUMNS_IN_VIEW)
        }}
      >
        <View className='datalist-cell datalist-cell--name datalist-cell--head' style={{ width: `${NAME_WIDTH}px` }} onClick={() => !list.selecting && list.sortBy('name')}>
          {list.selecting ? (
            <Checkbox className='datalist-check' checked={list.allPicked} onChange={() => list.toggleAll()} label={DATA_LIST_MSG.selectAll} />
          ) : (
            <Text>{DATA_LIST_MSG.name + sortMark('name')}</Text>
          )}
        </View>
        {inView.map((c) => (
          <Text key={c.key} className='datalist-cell datalist-cell--head' style={{ width: `${CELL_WIDTH}px` }} onClick={() => list.sortBy(c.key)}>
            {c.title + sortMark(c.key)}
          </Text>
        ))}
        <View className='datalist-pager'>
          <Text className={`datalist-pager__btn ${firstColumn === 0 ? 'datalist-pager__btn--off' : ''}`} onClick={() => shiftColumns(-COLUMNS_IN_VIEW)}>
            ‹
          </Text>
          <Text className={`datalist-pager__btn ${firstColumn + COLUMNS_IN_VIEW >= columns.length ? 'datalist-pager__btn--off' : ''}`} onClick={() => shiftColumns(COLUMNS_IN_VIEW)}>
            ›
          </Text>
        </View>
      </View>

      {list.loaded && list.shown.length === 0 ? <Text className='datalist-empty'>{DATA_LIST_MSG.empty}</Text> : null}
      {list.shown.length ? (
        <ColumnsInView.Provider value={inView}>
          <VirtualList
            className='datalist-body'
            height={listHeight}
            width='100%'
            itemData={list.shown}
            itemCount={list.shown.length}
            itemSize={ROW_HEIGHT}
            overscanCount={4}
            item={Row}
            onScrollToLower={() => void list.loadMore()}
          />
        </ColumnsInView.Provider>
      ) : null}

      {list.selecting ? (
        <View className='datalist-bar'>
          <Text className='datalist-bar__count'>{DATA_LIST_MSG.selectedLine(n)}</Text>
          <Button type='primary' disabled={n === 0 || list.busy} loading={list.busy} onClick={() => setActionsOpen(true)}>
            批量操作
          </Button>
        </View>
      ) : null}

      <ActionSheet
        visible={actionsOpen}
        title={DATA_LIST_MSG.selectedLine(n)}
        options={actions}
        onSelect={(item) => onPickAction(String(item.key))}
        onCancel={() => setActionsOpen(false)}
        cancelText={DATA_LIST_MSG.cancel}
      />

      <Popup visible={sheet === 'set_field' || sheet === 'set_style' || sheet === 'move'} position='bottom' round onClose={() => setSheet(null)}>
        <View className='datalist-form'>
          {sheet === 'set_field' ? (
            <>
              <Text className='datalist-form__title'>{DATA_LIST_MSG.actions.set_field}</Text>
              <Radio.Group value={fieldId} direction='horizontal' onChange={(v) => (setFieldId(Number(v)), setValue(null))}>
                {list.fields.map((f) => (
                  <Radio key={f.id} value={f.id} shape='button'>
                    {f.name}
                  </Radio>
                ))}
              </Radio.Group>
              {list.fields.find((f) => f.id === fieldId) ? <FieldValueInput field={list.fields.find((f) => f.id === fieldId)!} value={value ?? undefined} onChange={setValue} /> : null}
            </>
          ) : null}
          {sheet === 'set_style' ? (
            <>
              <Text className='datalist-form__title'>{DATA_LIST_MSG.actions.set_style}</Text>
              <View className='datalist-swatches'>
                {STYLE_COLORS.map((c) => (
                  <View key={c} className={`datalist-swatch ${color === c ? 'datalist-swatch--on' : ''}`} style={{ background: c }} onClick={() => setColor(color === c ? '' : c)} />
                ))}
              </View>
              <Radio.Group value={size} direction='horizontal' onChange={(v) => setSize(Number(v))}>
                {STYLE_SIZES.map((s) => (
                  <Radio key={s} value={s} shape='button'>
                    {`大小 ${s}`}
                  </Radio>
                ))}
              </Radio.Group>
            </>
          ) : null}
          {sheet === 'move' ? (
            <>
              <Text className='datalist-form__title'>{DATA_LIST_MSG.actions.move}</Text>
              <Radio.Group value={target} onChange={(v) => setTarget(Number(v))}>
                {sameKind.map((l) => (
                  <Radio key={l.id} value={l.id}>
                    {layers.pathLabel(l.id)}
                  </Radio>
                ))}
              </Radio.Group>
            </>
          ) : null}
          <Text className='datalist-form__confirm'>{confirmText()}</Text>
          <Button block type='primary' onClick={() => void runAction()}>
            {`确定（${n} 条）`}
          </Button>
        </View>
      </Popup>

      <Dialog
        title={DATA_LIST_MSG.actions.delete}
        visible={sheet === 'delete'}
        content={confirmText()}
        confirmText={DATA_LIST_MSG.actions.delete}
        cancelText={DATA_LIST_MSG.cancel}
        className='dialog--destructive'
        onConfirm={() => void runAction()}
        onCancel={() => setSheet(null)}
      />

      <Dialog
        title={`${DATA_LIST_MSG.actions.export}（${list.pickedRows.length} 条）`}
        visible={sheet === 'export'}
        confirmText={DATA_LIST_MSG.actions.export}
        cancelText={DATA_LIST_MSG.cancel}
        onConfirm={() => void doExport()}
        onCancel={() => setSheet(null)}
      >
        <View className='datalist-form__export'>
          <Radio.Group value={format} direction='horizontal' onChange={(v) => setFormat(v as ExportFormat)}>
            {EXPORT_FORMAT_CHOICES.map((f) => (
              <Radio key={f.value} value={f.value} shape='button'>
                {f.label}
              </Radio>
            ))}
          </Radio.Group>
          <Radio.Group value={crs} onChange={(v) => setCrs(v as FileCrs)}>
            {CRS_CHOICES.map((c) => (
              <Radio key={c.value} value={c.value}>
                {c.label}
              </Radio>
            ))}
          </Radio.Group>
        </View>
      </Dialog>

      <Dialog
        title='文件已生成'
        visible={!!saved}
        content={saved ? MAP_UI_MSG.exportSaved(saved.out.name) : ''}
        confirmText='发送给好友'
        cancelText='完成'
        onConfirm={() => {
          void saved?.share().catch(() => undefined)
          setSaved(null)
        }}
        onCancel={() => setSaved(null)}
      />

      <Popup visible={sheet === 'filter'} position='bottom' round onClose={() => (setSheet(null), setFilterField(null))}>
        <View className='datalist-form'>
          <Text className='datalist-form__title'>{DATA_LIST_MSG.filter}</Text>
          {filterField ? (
            <FilterEditor
              field={filterField}
              current={list.filterOf(filterField.id)}
              onDone={(f) => {
                list.setFilter(filterField.id, f)
                setFilterField(null)
                setSheet(null)
              }}
            />
          ) : (
            list.fields.map((f) => (
              <View key={f.id} className='datalist-filter-row' onClick={() => setFilterField(f)}>
                <Text>{f.name}</Text>
                <Text className='muted'>{list.filterOf(f.id) ? filterLabel(list.filterOf(f.id)!, f.name) : '›'}</Text>
              </View>
            ))
          )}
        </View>
      </Popup>

      <Suspense fallback={null}>{root.shares.form ? <ShareDialog /> : null}</Suspense>
    </View>
  )
})

/** One field's filter: its kind's ways (options; from–to; contains) and empty / not empty. */
function FilterEditor({ field, current, onDone }: { field: LayerField; current: DataListFilter | undefined; onDone: (f: DataListFilter | null) => void }) {
  const ops = FILTER_OPS[field.kind]
  const [op, setOp] = useState<DataListFilter['op']>(current?.op ?? ops[0])
  const [values, setValues] = useState<string[]>(current?.op === 'in' ? current.values : [])
  const [a, setA] = useState(current?.op === 'range' ? String(current.min ?? '') : current?.op === 'dates' ? (current.from ?? '') : current?.op === 'contains' ? current.text : '')
  const [b, setB] = useState(current?.op === 'range' ? String(current.max ?? '') : current?.op === 'dates' ? (current.to ?? '') : '')
  const opName: Record<DataListFilter['op'], string> = {
    in: '选项',
    range: '范围',
    dates: '日期',
    contains: DATA_LIST_MSG.contains,
    empty: DATA_LIST_MSG.emptyValue,
    not_empty: DATA_LIST_MSG.notEmptyValue,
  }
  const built = (): DataListFilter | null => {
    const id = field.id
    switch (op) {
      case 'in':
        return values.length ? { field_id: id, op, values } : null
      case 'range': {
        const min = a.trim() === '' ? undefined : Number(a)
        const max = b.trim() === '' ? undefined : Number(b)
        return min === undefined && max === undefined ? null : { field_id: id, op, min: Number.isFinite(min) ? min : undefined, max: Number.isFinite(max) ? max : undefined }
      }
      case 'dates':
        return a || b ? { field_id: id, op, from: a || undefined, to: b || undefined } : null
      case 'contains':
        return a.trim() ? { field_id: id, op, text: a.trim() } : null
      default:
        return { field_id: id, op }
    }
  }
  return (
    <View className='datalist-filter'>
      <Text className='datalist-filter__name'>{field.name}</Text>
      <Radio.Group value={op} direction='horizontal' onChange={(v) => setOp(v as DataListFilter['op'])}>
        {ops.map((o) => (
          <Radio key={o} value={o} shape='button'>
            {opName[o]}
          </Radio>
        ))}
      </Radio.Group>
      {op === 'in' ? (
        <Checkbox.Group value={values} onChange={(v) => setValues(v as string[])} direction='horizontal'>
          {field.options.map((o) => (
            <Checkbox key={o} value={o} shape='button' label={o} />
          ))}
        </Checkbox.Group>
      ) : null}
      {op === 'range' || op === 'dates' ? (
        <View className='datalist-filter__range'>
          <Input
            className='datalist-filter__input'
            type={op === 'range' ? 'digit' : 'text'}
            placeholder={op === 'dates' ? `${DATA_LIST_MSG.from} 2024-01-01` : DATA_LIST_MSG.from}
            value={a}
            onChange={setA}
          />
          <Input
            className='datalist-filter__input'
            type={op === 'range' ? 'digit' : 'text'}
            placeholder={op === 'dates' ? `${DATA_LIST_MSG.to} 2024-12-31` : DATA_LIST_MSG.to}
            value={b}
            onChange={setB}
          />
        </View>
      ) : null}
      {op === 'contains' ? <Input className='datalist-filter__input' placeholder={DATA_LIST_MSG.contains} value={a} onChange={setA} /> : null}
      <View className='datalist-filter__actions'>
        <Button size='small' onClick={() => onDone(null)}>
          {DATA_LIST_MSG.clearFilters}
        </Button>
        <Button size='small' type='primary' onClick={() => onDone(built())}>
          确定
        </Button>
      </View>
    </View>
  )
}

function DataListPage() {
  return (
    <PageShell className='datalist-page'>
      <DataList />
    </PageShell>
  )
}

export default observer(DataListPage)
