/**
 * The layer panel of /map: the folder tree in a bottom popup, with an actions menu per
 * folder or layer: new folder/layer inside, rename, move, default layer, title style, fields,
 * export, import, delete (a folder with content confirms the counts, then goes with everything in
 * it; the operation log can restore it).
 */
import { ActionSheet, Button, Dialog, Input, Popup, Progress, Radio } from '@nutui/nutui-react-taro'
import { Text, View } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import { useEffect, useState } from 'react'
import type { ExportFormat, FileCrs, ImportResult, Layer } from '../../../types/mapdata'
import { ROOT_ID } from '../../domain/layerTree'
import { LAYER_NAME_MAX } from '../../domain/markers'
import { MAP_MSG, MAP_UI_MSG } from '../../domain/messages'
import { PERM, shareableLayers } from '../../domain/permissions'
import { FEATURES, featureOffer, featureOpen } from '../../domain/moduleGate'
import { markerTypesOf } from '../../domain/points'
import { IMPORT_EXTENSIONS } from '../../domain/formats/extensions'
import { CRS_CHOICES, EXPORT_FORMAT_CHOICES } from '../../domain/formats/choices'
import { useStores } from '../../stores/context'
import { syncStores } from '../../stores/syncStores'
import { OFFLINE_MSG } from '../../domain/offlineMessages'
import { DATA_LIST_MSG } from '../../domain/dataListMessages'
import type { Platform } from '../../stores/RootStore'
import { badRows } from '../../stores/MarkerStore'
import { LayerTree } from '../LayerTree'
import { TitleStyleEditor } from '../TitleStyleEditor'
import './index.scss'
import { LAYER_KIND } from '../../domain/markerKinds'
import { IMPORT_UI_MSG } from '../../domain/importMessages'
import { newClientId } from '../../domain/clientId'
import { ImportWatch } from '../../stores/ImportWatch'

type Mode = 'folder' | 'layer' | 'rename' | 'move' | 'delete' | 'export' | 'import' | 'style' | null

type ActionKey = 'add-marker' | 'new-folder' | 'new-layer' | 'rename' | 'move' | 'default' | 'style' | 'fields' | 'datalist' | 'export' | 'import' | 'delete' | 'share' | 'offline' | 'print'

interface ActionOption {
  [key: string]: string | boolean
  key: ActionKey
  name: string
}

const FORMATS = EXPORT_FORMAT_CHOICES
const CRS_OPTIONS = CRS_CHOICES

const IMPORT_ERRORS_SHOWN = 50

type FileAdapter = Awaited<ReturnType<Platform['files']>>
type SavedFile = Awaited<ReturnType<FileAdapter['saveTextFile']>>

export interface LayerPanelProps {
  visible: boolean
  onClose: () => void
}

export const LayerPanel = observer(function LayerPanel({ visible, onClose }: LayerPanelProps) {
  const root = useStores(syncStores)
  const { layers, markers, navigate, offlineCache } = root
  const [target, setTarget] = useState<Layer | null>(null)
  const [sheet, setSheet] = useState(false)
  const [mode, setMode] = useState<Mode>(null)
  const [parentId, setParentId] = useState<number>(ROOT_ID)
  const [name, setName] = useState('')
  const [layerType, setLayerType] = useState<1 | 2 | 3>(1)
  const [moveTo, setMoveTo] = useState<number>(ROOT_ID)
  const [format, setFormat] = useState<ExportFormat>('geojson')
  const [crs, setCrs] = useState<FileCrs>('wgs84')
  const [saved, setSaved] = useState<SavedFile | null>(null)
  const [busy, setBusy] = useState(false)
  const [importing, setImporting] = useState<ImportWatch | null>(null)
  // Loaded while the panel shows: an H5 file picker opens only while the tap's activation lasts, and
  // WeChat sends a saved file only from inside the tap.
  const [files, setFiles] = useState<FileAdapter | null>(null)

  useEffect(() => {
    if (visible && !files) void root.platform.files().then(setFiles, () => undefined)
    // eslint-disable-next-line react-hooks/exhaustive-deps -- loads the file adapter once, when the panel first shows
  }, [visible])

  const fileAdapter = async (): Promise<FileAdapter> => {
    if (files) return files
    const loaded = await root.platform.files()
    setFiles(loaded)
    return loaded
  }

  const close = () => setMode(null)

  const openCreate = (kind: 'folder' | 'layer', parent: number) => {
    setParentId(parent)
    setName('')
    setLayerType(1)
    setMode(kind)
  }

  const actionsFor = (l: Layer): ActionOption[] => {
    const folder = l.type === LAYER_KIND.folder
    const list: ActionOption[] = []
    if (!folder && layers.can(l, PERM.MARKER_ADD)) list.push({ key: 'add-marker', name: '在此图层添加标注' })
    if (folder && layers.canCreateIn(l.id)) {
      list.push({ key: 'new-folder', name: '新建子文件夹' })
      list.push({ key: 'new-layer', name: '新建图层' })
    }
    if (layers.can(l, PERM.LAYER_EDIT)) {
      list.push({ key: 'rename', name: '重命名' })
      list.push({ key: 'move', name: '移动到…' })
      if (!folder && !l.is_default) list.push({ key: 'default', name: '设为默认图层' })
      if (!folder) list.push({ key: 'style', name: '标题样式' })
    }
    if (!folder && layers.can(l, PERM.LAYER_DATA_LIST)) list.push({ key: 'datalist', name: DATA_LIST_MSG.entry })
    if (!folder && layers.can(l, PERM.LAYER_FIELD)) list.push({ key: 'fields', name: '字段管理' })
    // 离线保留: a switch, its state in its name (a pinned layer is never dropped from the phone to make room).
    if (!folder) list.push({ key: 'offline', name: offlineCache.isPinned(l.id) ? OFFLINE_MSG.pinOn : OFFLINE_MSG.pinOff })
    if (!folder && layers.can(l, PERM.LAYER_EXPORT)) list.push({ key: 'export', name: '导出数据' })
    if (!folder && layers.can(l, PERM.LAYER_IMPORT)) list.push({ key: 'import', name: '导入数据' })
    if (!folder && layers.can(l, PERM.LAYER_SHARE) && featureOpen(FEATURES.share, root.session.user?.modules)) list.push({ key: 'share', name: '分享图层' })
    // 打印: with the tier locking the module it shows marked, and its page offers the membership.
    const printOffer = featureOffer(FEATURES.print, root.session.user?.modules, root.session.user?.level ?? 0)
    if (!folder && printOffer !== 'hidden') list.push({ key: 'print', name: printOffer === 'vip' ? '打印图层（VIP）' : '打印图层' })
    if (layers.can(l, PERM.LAYER_DELETE)) list.push({ key: 'delete', name: folder ? '删除文件夹' : '删除图层', danger: true })
    return list
  }

  const onAction = (l: Layer) => {
    setTarget(l)
    setSheet(true)
  }

  const run = (key: ActionKey) => {
    setSheet(false)
    const l = target
    if (!l) return
    switch (key) {
      case 'offline':
        void offlineCache.setPinned(l.id, !offlineCache.isPinned(l.id))
        return
      case 'print':
        onClose()
        navigate(`/print?layer=${l.id}`)
        return
      case 'share':
        onClose()
        root.app.requestShare({ type: 1, ids: [l.id], name: l.name })
        return
      case 'add-marker':
        onClose()
        navigate(`/addinfo?type=${markerTypesOf(l.type)[0] ?? 0}&layer_id=${l.id}`)
        return
      case 'new-folder':
        return openCreate('folder', l.id)
      case 'new-layer':
        return openCreate('layer', l.id)
      case 'rename':
        setName(l.name)
        return setMode('rename')
      case 'move':
        setMoveTo(l.parent_id)
        return setMode('move')
      case 'default':
        void layers.setDefault(l.id)
        return
      case 'style':
        return setMode('style')
      case 'datalist':
        onClose()
        navigate(`/datalist?layer_id=${l.id}`)
        return
      case 'fields':
        onClose()
        navigate(`/fields?layer_id=${l.id}`)
        return
      case 'export':
        setSaved(null)
        return setMode('export')
      case 'import':
        markers.clearImportResult()
        return setMode('import')
      case 'delete':
        return setMode('delete')
    }
  }

  const submitName = async () => {
    let ok = false
    if (mode === 'folder') ok = !!(await layers.createFolder(parentId, name))
    else if (mode === 'layer') ok = !!(await layers.createLayer(parentId, name, layerType))
    else if (mode === 'rename' && target) ok = await layers.rename(target.id, name, target.rev)
    if (ok) close()
  }

  const doExport = async () => {
    if (!target || busy) return
    setBusy(true)
    try {
      const file = await markers.exportLayer(target.id, format, crs)
      if (!file) return
      const out = await (await fileAdapter()).saveTextFile(file)
      if (out.needsShare) setSaved(out)
      else {
        root.app.notify(MAP_UI_MSG.exportSaved(out.name), 'success')
        close()
      }
    } catch {
      root.app.notify(MAP_UI_MSG.fileSaveFailed, 'danger')
    } finally {
      setBusy(false)
    }
  }

  const doImport = async () => {
    if (!target || busy) return
    let picked
    try {
      picked = await (await fileAdapter()).pickTextFile(IMPORT_EXTENSIONS)
    } catch {
      root.app.notify(MAP_MSG.importUnreadable, 'danger')
      return
    }
    if (!picked) return
    setBusy(true)
    // The server reports the import's phase by this id, and stops it on cancel until it writes.
    const watch = new ImportWatch(root, newClientId())
    setImporting(watch)
    watch.start()
    try {
      await markers.importFile(target.id, picked, crs, watch.importId)
    } finally {
      watch.stop()
      setImporting(null)
      setBusy(false)
    }
  }

  const result = markers.importResult
  const nameDialogTitle = mode === 'folder' ? (parentId === ROOT_ID ? '新建文件夹' : '新建子文件夹') : mode === 'layer' ? '新建图层' : '重命名'

  return (
    <>
      <Popup visible={visible} position='bottom' round closeable title='图层' className='layer-panel' onClose={onClose}>
        <View className='layer-panel__toolbar'>
          {layers.canCreateIn(ROOT_ID) ? (
            <>
              <Button size='small' fill='outline' type='primary' onClick={() => openCreate('folder', ROOT_ID)}>
                新建文件夹
              </Button>
              <Button size='small' fill='outline' type='primary' onClick={() => openCreate('layer', ROOT_ID)}>
                新建图层
              </Button>
            </>
          ) : null}
          {shareableLayers(layers.layers).length && featureOpen(FEATURES.share, root.session.user?.modules) ? (
            <Button
              size='small'
              fill='outline'
              type='primary'
              className='layer-panel__share'
              onClick={() => {
                onClose()
                root.app.requestShare({ type: 1, ids: [], pickLayers: true })
              }}
            >
              分享
            </Button>
          ) : null}
          <Button size='small' fill='outline' onClick={() => layers.collapseAll()}>
            全部收起
          </Button>
        </View>
        <View className='layer-panel__list'>
          {layers.layers.length ? (
            <LayerTree onActions={onAction} />
          ) : (
            <View className='layer-panel__empty'>
              <Text className='layer-panel__empty-title'>{layers.loading ? '加载中…' : '还没有图层'}</Text>
              {!layers.loading ? <Text className='layer-panel__empty-sub'>新建一个图层，开始添加标注</Text> : null}
            </View>
          )}
        </View>
        <View className='layer-panel__footer'>
          <Text className='layer-panel__hint'>
            共{layers.layers.filter((l) => l.type !== LAYER_KIND.folder).length}个图层 · 已加载{markers.count}个标注{markers.loading ? '（加载中）' : ''}
          </Text>
          {featureOpen(FEATURES.log, root.session.user?.modules) ? (
            <Text
              className='layer-panel__link'
              onClick={() => {
                onClose()
                navigate('/oplog')
              }}
            >
              操作日志
            </Text>
          ) : null}
        </View>
      </Popup>

      <ActionSheet
        visible={sheet}
        title={target?.name}
        options={target ? actionsFor(target) : []}
        cancelText='取消'
        onSelect={(item) => run((item as ActionOption).key)}
        onCancel={() => setSheet(false)}
      />

      <Dialog
        className='layer-dialog'
        title={nameDialogTitle}
        visible={mode === 'folder' || mode === 'layer' || mode === 'rename'}
        confirmText='确定'
        cancelText='取消'
        onConfirm={() => void submitName()}
        onCancel={close}
      >
        <View className='layer-dialog__body'>
          {parentId !== ROOT_ID && mode !== 'rename' ? <Text className='layer-dialog__where'>位置：{layers.pathLabel(parentId)}</Text> : null}
          <Input className='layer-dialog__input' placeholder={mode === 'folder' ? '请输入文件夹名称' : '请输入图层名称'} value={name} maxLength={LAYER_NAME_MAX} onChange={(v) => setName(v)} />
          {mode === 'layer' ? (
            <Radio.Group className='layer-dialog__types' value={layerType} direction='horizontal' onChange={(v) => setLayerType(Number(v) as 1 | 2 | 3)}>
              <Radio value={1} shape='button'>
                点图层
              </Radio>
              <Radio value={2} shape='button'>
                线图层
              </Radio>
              <Radio value={3} shape='button'>
                面图层
              </Radio>
            </Radio.Group>
          ) : null}
        </View>
      </Dialog>

      <Dialog
        className='layer-dialog'
        title={`移动“${target?.name ?? ''}”到`}
        visible={mode === 'move'}
        confirmText='移动'
        cancelText='取消'
        onConfirm={async () => {
          if (target && (await layers.move(target.id, moveTo))) close()
        }}
        onCancel={close}
      >
        <View className='layer-dialog__targets'>
          <Radio.Group value={moveTo} onChange={(v) => setMoveTo(Number(v))}>
            <Radio value={ROOT_ID} className='layer-dialog__target'>
              最外层
            </Radio>
            {target
              ? layers.moveTargets(target.id).map((r) => (
                  <Radio key={r.layer.id} value={r.layer.id} className='layer-dialog__target' style={{ paddingLeft: `${(r.depth + 1) * 24}px` }}>
                    {r.layer.name}
                  </Radio>
                ))
              : null}
          </Radio.Group>
        </View>
      </Dialog>

      <Dialog
        className='dialog--destructive'
        title={target?.type === LAYER_KIND.folder ? '删除文件夹' : '删除图层'}
        visible={mode === 'delete'}
        content={target ? layers.deleteConfirmText(target.id) : ''}
        confirmText='删除'
        cancelText='取消'
        onConfirm={async () => {
          const l = target
          close()
          if (l) await layers.remove(l.id, l.rev)
        }}
        onCancel={close}
      />

      <Dialog
        className='layer-dialog'
        title={saved ? '文件已生成' : `导出“${target?.name ?? ''}”`}
        visible={mode === 'export'}
        confirmText={saved ? '发送给好友' : busy ? '导出中…' : '导出'}
        cancelText={saved ? '完成' : '取消'}
        onConfirm={() => {
          if (saved) {
            // The adapter that saved the file is loaded by now.
            if (files) void files.shareSavedFile(saved).catch(() => undefined)
            close()
          } else void doExport()
        }}
        onCancel={close}
      >
        {saved ? (
          <View className='layer-dialog__body'>
            <Text className='layer-dialog__where'>{MAP_UI_MSG.exportSaved(saved.name)}</Text>
          </View>
        ) : (
          <View className='layer-dialog__body'>
            <Text className='layer-dialog__label'>文件格式</Text>
            <Radio.Group className='layer-dialog__types' value={format} direction='horizontal' onChange={(v) => setFormat(v as ExportFormat)}>
              {FORMATS.map((f) => (
                <Radio key={f.value} value={f.value} shape='button'>
                  {f.label}
                </Radio>
              ))}
            </Radio.Group>
            <Text className='layer-dialog__label'>坐标系</Text>
            <Radio.Group value={crs} onChange={(v) => setCrs(v as FileCrs)}>
              {CRS_OPTIONS.map((c) => (
                <Radio key={c.value} value={c.value}>
                  {c.label}
                </Radio>
              ))}
            </Radio.Group>
          </View>
        )}
      </Dialog>

      <Dialog className='layer-dialog layer-dialog--import' title={`导入到“${target?.name ?? ''}”`} visible={mode === 'import'} hideConfirmButton cancelText='关闭' onCancel={close}>
        <View className='layer-dialog__body'>
          <Text className='layer-dialog__label'>文件中的坐标系</Text>
          <Radio.Group value={crs} onChange={(v) => setCrs(v as FileCrs)}>
            {CRS_OPTIONS.map((c) => (
              <Radio key={c.value} value={c.value}>
                {c.label}
              </Radio>
            ))}
          </Radio.Group>
          <Text className='layer-dialog__tip'>{IMPORT_UI_MSG.tip}</Text>
          <Button block type='primary' loading={busy} onClick={() => void doImport()}>
            选择文件并导入
          </Button>
          {importing ? <ImportProgressBar watch={importing} /> : null}
          {result ? (
            badRows(result) ? (
              <View className='import-result import-result--bad'>
                <Text className='import-result__title'>{MAP_MSG.importRowsInvalid(badRows(result))}：</Text>
                <ImportSummary result={result} />
                <View className='import-result__rows'>
                  {result.errors.slice(0, IMPORT_ERRORS_SHOWN).map((e) => (
                    <Text key={`${e.row}-${e.message}`} className='import-result__row'>
                      第{e.row}行：{e.message}
                    </Text>
                  ))}
                  {badRows(result) > Math.min(result.errors.length, IMPORT_ERRORS_SHOWN) ? <Text className='import-result__row'>……</Text> : null}
                </View>
              </View>
            ) : (
              <View className='import-result import-result--ok'>
                <Text className='import-result__title'>{MAP_MSG.importOk(result.imported)}</Text>
                <ImportSummary result={result} />
                {(result.layers ?? []).map((l) => (
                  <Text key={l.id} className='import-result__row'>
                    {IMPORT_UI_MSG.intoLayer(l.name, l.imported, l.created)}
                  </Text>
                ))}
                {result.notes ? <Text className='import-result__row'>{IMPORT_UI_MSG.notes(result.notes)}</Text> : null}
              </View>
            )
          ) : null}
        </View>
      </Dialog>

      <TitleStyleEditor visible={mode === 'style'} layerId={target?.id ?? null} layerName={target?.name ?? ''} onClose={close} />
    </>
  )
})

/** What the imported file holds (points, lines, areas, records without geometry, records split): one line under the outcome. */
/** The import in flight: a bar with what it is doing, and 取消导入 while the server can still stop. */
const ImportProgressBar = observer(function ImportProgressBar({ watch }: { watch: ImportWatch }) {
  return (
    <View className='import-progress'>
      <Progress percent={watch.share} showText={false} strokeWidth='8' color='var(--nutui-color-primary)' />
      <View className='import-progress__line'>
        <Text className='import-progress__text'>{watch.text}</Text>
        {watch.canCancel ? (
          <Button size='small' fill='outline' type='danger' onClick={() => void watch.cancel()}>
            {IMPORT_UI_MSG.cancel}
          </Button>
        ) : null}
      </View>
    </View>
  )
})

function ImportSummary({ result }: { result: ImportResult }) {
  const { summary } = result
  if (!summary) return null
  const text = IMPORT_UI_MSG.holds(summary) + (summary.split ? `；${IMPORT_UI_MSG.split(summary.split)}` : '')
  return <Text className='import-result__summary'>{text}</Text>
}
