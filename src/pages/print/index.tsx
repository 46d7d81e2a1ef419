/**
 * /print: the print sheet (打印) — a live preview of the printed sheet (drawn by the server, the same
 * picture as the output, small) over the sheet's choices: the area (the map's view or the chosen
 * layers, route or task fitted), paper, orientation, quality, title, note and what the sheet shows;
 * then 保存图片 (album, host app or download) and 导出PDF. Opened from the map's tools (?view=1),
 * a layer's menu (?layer=), a route's (?route=&name=) or a task's detail (?task=&name=). The rules
 * live in src/domain/print.ts and PrintStore; module_print gates the address (moduleGate.ts).
 */
import { Button, Checkbox, Dialog, Input, Radio, Switch } from '@nutui/nutui-react-taro'
import { Image, Text, View } from '@tarojs/components'
import { useRouter } from '@tarojs/taro'
import { observer } from 'mobx-react-lite'
import { useEffect } from 'react'
import type { PrintOptions, PrintSwitches } from '../../../types/print'
import { PageShell } from '../../components/PageShell'
import { MSG } from '../../domain/messages'
import { PRINT_NOTE_MAX, PRINT_TITLE_MAX, QUALITY_DPI, QUALITY_NAMES } from '../../domain/print'
import { PRINT_MSG } from '../../domain/printMessages'
import { useStores } from '../../stores/context'
import { printStores } from '../../stores/printStores'
import './index.scss'

function param(v: string | undefined): string {
  if (!v) return ''
  try {
    return v.includes('%') ? decodeURIComponent(v) : v
  } catch {
    return v
  }
}

const idParam = (v: string | undefined) => {
  const n = Number(v ?? '')
  return Number.isInteger(n) && n > 0 ? n : undefined
}

const SWITCHES: { key: keyof PrintSwitches; label: string }[] = [
  { key: 'legend', label: '图例' },
  { key: 'scale_bar', label: '比例尺' },
  { key: 'north_arrow', label: '指北针' },
  { key: 'titles', label: '标注名称' },
  { key: 'footer', label: '日期和团队名称' },
  { key: 'basemap', label: '底图' },
]

function Choice<V extends string>({ label, value, options, onChange, className }: { label: string; value: V; options: { value: V; label: string }[]; onChange: (v: V) => void; className: string }) {
  return (
    <View className={`print-row ${className}`}>
      <Text className='print-row__label'>{label}</Text>
      <Radio.Group value={value} direction='horizontal' onChange={(v) => onChange(String(v) as V)}>
        {options.map((o) => (
          <Radio key={o.value} value={o.value} shape='button' className='print-row__choice'>
            {o.label}
          </Radio>
        ))}
      </Radio.Group>
    </View>
  )
}

const Preview = observer(function Preview() {
  const { print } = useStores(printStores)
  const o = print.options
  const landscape = o.orientation === 'landscape'
  return (
    <View className='print-preview'>
      <View className={`print-preview__paper ${landscape ? 'print-preview__paper--landscape' : 'print-preview__paper--portrait'}`} onClick={() => void print.showPicture()}>
        {print.previewUrl ? <Image className='print-preview__image' src={print.previewUrl} mode='aspectFit' /> : null}
        {print.previewing ? <Text className='print-preview__busy'>{PRINT_MSG.previewing}</Text> : null}
        {!print.previewing && print.previewError ? <Text className='print-preview__error'>{print.previewError}</Text> : null}
      </View>
      <Text className='print-preview__caption muted'>
        {o.paper} {landscape ? '横向' : '纵向'} · {QUALITY_NAMES[o.quality]} {QUALITY_DPI[o.quality]} dpi
      </Text>
    </View>
  )
})

const Options = observer(function Options() {
  const { print } = useStores(printStores)
  const o = print.options
  const set =
    <K extends keyof PrintOptions>(k: K) =>
    (v: PrintOptions[K]) =>
      print.set(k, v)
  const subjectLayers = !print.routeId && !print.taskId
  return (
    <View className='print-options'>
      {print.view ? (
        <Choice
          className='print-area'
          label='范围'
          value={print.area}
          options={[
            { value: 'view', label: '当前视图' },
            { value: 'fit', label: print.routeId ? '整条路线' : print.taskId ? '任务位置' : '所选图层' },
          ]}
          onChange={(v) => print.setArea(v)}
        />
      ) : null}
      <Choice
        className='print-paper'
        label='纸张'
        value={o.paper}
        options={[
          { value: 'A4', label: 'A4' },
          { value: 'A3', label: 'A3' },
        ]}
        onChange={set('paper')}
      />
      <Choice
        className='print-orientation'
        label='方向'
        value={o.orientation}
        options={[
          { value: 'portrait', label: '纵向' },
          { value: 'landscape', label: '横向' },
        ]}
        onChange={set('orientation')}
      />
      <Choice
        className='print-quality'
        label='清晰度'
        value={o.quality}
        options={[
          { value: 'standard', label: `标准 ${QUALITY_DPI.standard}dpi` },
          { value: 'hd', label: `高清 ${QUALITY_DPI.hd}dpi` },
        ]}
        onChange={set('quality')}
      />
      <View className='print-row print-title'>
        <Text className='print-row__label'>标题</Text>
        <Input className='print-row__input' value={o.title} maxLength={PRINT_TITLE_MAX} placeholder={PRINT_MSG.untitled} onChange={(v) => print.set('title', v)} />
      </View>
      <View className='print-row print-note'>
        <Text className='print-row__label'>备注</Text>
        <Input className='print-row__input' value={o.note} maxLength={PRINT_NOTE_MAX} placeholder='印在标题下方的一行说明（可不填）' onChange={(v) => print.set('note', v)} />
      </View>
      <View className='print-switches'>
        {SWITCHES.map((s) => (
          <View key={s.key} className={`print-switch print-switch--${s.key}`}>
            <Text className='print-switch__label'>{s.label}</Text>
            <Switch checked={o[s.key]} onChange={(v) => print.set(s.key, v)} />
          </View>
        ))}
      </View>
      {subjectLayers ? (
        <View className='print-layers'>
          <Text className='print-row__label'>图层</Text>
          <View className='print-layers__list'>
            {print.printableLayers.map((l) => (
              <Checkbox key={l.id} className='print-layer' checked={print.layerIds.includes(l.id)} onChange={() => print.toggleLayer(l.id)} label={`${l.name}（${l.marker_count}）`} />
            ))}
          </View>
        </View>
      ) : null}
    </View>
  )
})

const Actions = observer(function Actions() {
  const { print } = useStores(printStores)
  const busy = print.output?.state === 'queued' || print.output?.state === 'running'
  return (
    <View className='print-actions'>
      {busy ? <Text className='print-actions__progress'>{print.outputText}</Text> : null}
      <View className='print-actions__buttons'>
        <Button className='print-save-png' type='primary' disabled={busy} onClick={() => void print.make('png')}>
          保存图片
        </Button>
        <Button className='print-save-pdf' disabled={busy} onClick={() => void print.make('pdf')}>
          导出PDF
        </Button>
      </View>
    </View>
  )
})

const AlbumDialog = observer(function AlbumDialog() {
  const { print } = useStores(printStores)
  return (
    <Dialog
      className='print-album-permission'
      title={MSG.permissionError}
      visible={print.albumDenied}
      content={PRINT_MSG.albumPermission}
      confirmText='去授权'
      cancelText='取消'
      onConfirm={() => void print.openAlbumSettings()}
      onCancel={() => print.closeAlbumDialog()}
    />
  )
})

function PrintSheet() {
  const root = useStores(printStores)
  const { params } = useRouter()
  useEffect(() => {
    const open = () => root.print.open({ layer: idParam(params.layer), route: idParam(params.route), task: idParam(params.task), name: param(params.name) })
    // Opened directly (a reload, a link): the layers come first, for the names and the choice.
    if (!root.layers.loaded) void root.layers.load().then(open)
    else open()
    return () => root.print.reset()
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per opening of the page
  }, [])
  return (
    <>
      <Preview />
      <Options />
      <Actions />
      <AlbumDialog />
    </>
  )
}

function PrintPage() {
  return (
    <PageShell className='print-page'>
      <PrintSheet />
    </PageShell>
  )
}

export default observer(PrintPage)
