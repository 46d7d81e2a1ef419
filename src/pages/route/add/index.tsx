/**
 * /route/add: plan a route — name, travel mode (driving or walking), ordered stops picked
 * from the group's markers by search, typed as 'lng,lat' or taken from the current position;
 * move them up or down, reverse, or order by the nearest next; the distance and time show at once
 * (straight line) and then as the server measures them. ?id= opens a saved route: editable with
 * routing_add, read-only without. The rules live in src/domain/routes.ts and RouteDraft.
 */
import { Button, Cell, Input, Radio, SearchBar } from '@nutui/nutui-react-taro'
import { Text, View } from '@tarojs/components'
import { useRouter } from '@tarojs/taro'
import { observer } from 'mobx-react-lite'
import { useEffect, useState } from 'react'
import type { TravelMode } from '../../../../types/routes'
import { PageShell } from '../../../components/PageShell'
import { NavigateButton } from '../../../components/NavigateButton'
import { navPlaceOf } from '../../../domain/directions'
import { FEATURES, featureOffer } from '../../../domain/moduleGate'
import { ROUTE_MSG } from '../../../domain/routeMessages'
import { ROUTE_NAME_MAX, ROUTE_STOPS_MIN, TRAVEL_MODES, TRAVEL_MODE_NAMES, formatDistance, formatDuration, formatRouteSummary } from '../../../domain/routes'
import { formatCoord } from '../../../domain/points'
import { useStores } from '../../../stores/context'
import './index.scss'
import { routeStores } from '../../../stores/routeStores'

function param(v: string | undefined): string {
  if (!v) return ''
  try {
    return v.includes('%') ? decodeURIComponent(v) : v
  } catch {
    return v
  }
}

const StopList = observer(function StopList({ readOnly }: { readOnly: boolean }) {
  const root = useStores(routeStores)
  const d = root.route.draft
  const plan = d.plan
  const last = d.stops.length - 1
  if (!d.stops.length) return <Text className='route-stops__hint muted'>还没有站点：在下方搜索标注、输入坐标或使用我的位置</Text>
  return (
    <View className='route-stops'>
      {d.stops.map((s, i) => (
        <View key={s.key} className='route-stop-wrap'>
          {i > 0 && plan.legs[i - 1] ? (
            <Text className='route-leg muted'>
              ↓ {formatDistance(plan.legs[i - 1].distance)} · {formatDuration(plan.legs[i - 1].duration)}
            </Text>
          ) : null}
          <View className='route-stop'>
            <Text className={`route-stop__badge ${i === 0 ? 'route-stop__badge--start' : i === last ? 'route-stop__badge--end' : ''}`}>{i === 0 ? '起' : i === last ? '终' : i + 1}</Text>
            <View className='route-stop__body'>
              <Text className='route-stop__name'>
                {s.name}
                {s.marker_id !== null ? <Text className='route-stop__tag'>标注</Text> : null}
              </Text>
              <Text className='route-stop__coord muted'>
                {formatCoord(s.lng)}, {formatCoord(s.lat)}
              </Text>
            </View>
            <NavigateButton place={navPlaceOf(s)} className='route-stop__navigate' />
            {readOnly ? null : (
              <View className='route-stop__actions'>
                <Text className={`route-stop__btn ${i === 0 ? 'route-stop__btn--off' : ''}`} onClick={() => i > 0 && d.moveUp(i)}>
                  上移
                </Text>
                <Text className={`route-stop__btn ${i === last ? 'route-stop__btn--off' : ''}`} onClick={() => i < last && d.moveDown(i)}>
                  下移
                </Text>
                <Text className='route-stop__btn route-stop__btn--danger' onClick={() => d.remove(i)}>
                  删除
                </Text>
              </View>
            )}
          </View>
        </View>
      ))}
    </View>
  )
})

const Summary = observer(function Summary() {
  const { route } = useStores(routeStores)
  const d = route.draft
  const plan = d.plan
  if (d.stops.length < ROUTE_STOPS_MIN) return <Text className='route-summary__hint muted'>添加至少{ROUTE_STOPS_MIN}个站点后显示路程和时间</Text>
  return (
    <View className='route-summary'>
      <Text className='route-summary__figures'>{formatRouteSummary(plan.distance, plan.duration)}</Text>
      <Text className='route-summary__note muted'>
        {TRAVEL_MODE_NAMES[d.mode]} · {d.stops.length}个站点 · {d.planning ? ROUTE_MSG.planning : d.estimate ? ROUTE_MSG.straightNote : ROUTE_MSG.providerNote}
      </Text>
    </View>
  )
})

const StopPicker = observer(function StopPicker() {
  const root = useStores(routeStores)
  const { app, layers, tracker } = root
  const d = root.route.draft
  const [coord, setCoord] = useState('')
  const [coordName, setCoordName] = useState('')
  const [locating, setLocating] = useState(false)

  const warn = (msg: string | null) => {
    if (msg) app.notify(msg, 'warning')
    return !msg
  }

  const addTyped = () => {
    if (warn(d.addCoordinate(coord, coordName))) {
      setCoord('')
      setCoordName('')
    }
  }

  const fillMyPosition = async () => {
    setLocating(true)
    // Through the tracker: a refusal shows the 权限错误 dialog, any other failure says so.
    const p = await tracker.locateNow()
    setLocating(false)
    if (p) warn(d.addPosition({ lng: p.lng, lat: p.lat }))
  }

  return (
    <View className='route-picker'>
      <SearchBar
        className='route-picker__search'
        placeholder='搜索标注名称、备注、字段内容'
        value={d.markerSearch.kw}
        onChange={(v) => d.markerSearch.setKw(v)}
        onSearch={(v) => void d.markerSearch.search(v)}
        onClear={() => d.markerSearch.clear()}
        right={
          <Text className='route-picker__go' onClick={() => void d.markerSearch.search()}>
            搜索
          </Text>
        }
      />
      {d.markerSearch.searched && !d.markerSearch.results.length ? <Text className='route-picker__empty muted'>{ROUTE_MSG.searchEmpty}</Text> : null}
      {d.markerSearch.results.map((m) => (
        <View key={m.id} className='route-result'>
          <View className='route-result__body'>
            <Text className='route-result__name'>{m.name}</Text>
            <Text className='route-result__layer muted'>{layers.byId.get(m.layer_id)?.name ?? ''}</Text>
          </View>
          <Button size='small' fill='outline' type='primary' className='route-result__add' onClick={() => warn(d.addMarker(m))}>
            {d.hasMarker(m.id) ? '再次添加' : '添加'}
          </Button>
        </View>
      ))}
      <View className='route-picker__coord'>
        <Input className='route-picker__input' placeholder='经度,纬度' value={coord} onChange={(v) => setCoord(v)} />
        <Input className='route-picker__input route-picker__input--name' placeholder='名称（可不填）' maxLength={50} value={coordName} onChange={(v) => setCoordName(v)} />
        <Button size='small' type='primary' fill='outline' onClick={addTyped}>
          添加坐标
        </Button>
      </View>
      <Button size='small' className='route-picker__locate' loading={locating} onClick={() => void fillMyPosition()}>
        使用我的位置
      </Button>
    </View>
  )
})

const RouteForm = observer(function RouteForm() {
  const root = useStores(routeStores)
  const { layers } = root
  const store = root.route
  const d = store.draft
  const router = useRouter()
  const [ready, setReady] = useState(false)
  const [missing, setMissing] = useState(false)
  const id = Number(param(router.params.id))

  useEffect(() => {
    // Layer names for the search results.
    if (!layers.loaded) void layers.load()
    void (async () => {
      if (id > 0) setMissing(!(await d.startEdit(id)))
      else d.startNew()
      setReady(true)
    })()
    return () => d.dispose()
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the draft of the route in the address, started once when the page opens
  }, [])

  if (!ready || d.loading) return <View className='route-form__loading muted'>加载中…</View>
  if (missing) return <View className='route-form__loading muted'>{ROUTE_MSG.notFound}</View>
  if (!id && !store.canAdd) return <View className='route-form__loading muted'>{ROUTE_MSG.addForbidden}</View>
  const readOnly = !store.canAdd
  // 打印 of a saved route: its stops and line on a sheet (with the tier locking it, the page offers the membership).
  const printOffer = featureOffer(FEATURES.print, root.session.user?.modules, root.session.user?.level ?? 0)

  const save = async () => {
    const saved = await d.save()
    if (!saved) return
    // Back to the list that opened this form; opened directly, go to the list instead.
    root.navigateBack('/route')
  }

  return (
    <View className='route-form'>
      {readOnly ? <Text className='route-form__readonly'>{ROUTE_MSG.readOnly}</Text> : null}
      <Cell.Group title='路线' className='route-group'>
        <View className='route-row'>
          <Text className='route-label'>名称</Text>
          <Input className='route-input' name='route-name' placeholder='请填写路线名称' disabled={readOnly} maxLength={ROUTE_NAME_MAX} value={d.name} onChange={(v) => d.setName(v)} />
        </View>
        <View className='route-row'>
          <Text className='route-label'>出行方式</Text>
          <Radio.Group value={d.mode} direction='horizontal' disabled={readOnly} onChange={(v) => d.setMode(v as TravelMode)}>
            {TRAVEL_MODES.map((m) => (
              <Radio key={m} value={m} shape='button' className='route-mode'>
                {TRAVEL_MODE_NAMES[m]}
              </Radio>
            ))}
          </Radio.Group>
        </View>
      </Cell.Group>

      <View className='route-card'>
        <Summary />
        {d.id && printOffer !== 'hidden' ? (
          <Button size='small' className='route-print' onClick={() => root.navigate(`/print?route=${d.id}&name=${encodeURIComponent(d.name)}`)}>
            {printOffer === 'vip' ? '打印路线（VIP）' : '打印路线'}
          </Button>
        ) : null}
      </View>

      <Cell.Group title='站点（按顺序）' className='route-group'>
        <View className='route-card route-card--flat'>
          <StopList readOnly={readOnly} />
          {!readOnly && d.stops.length > 1 ? (
            <View className='route-tools'>
              <Button size='small' className='route-tool' onClick={() => d.reverse()}>
                反转顺序
              </Button>
              {d.stops.length > 2 ? (
                <Button size='small' className='route-tool' onClick={() => d.sortByDistance()}>
                  就近排序
                </Button>
              ) : null}
            </View>
          ) : null}
        </View>
      </Cell.Group>

      {readOnly ? null : (
        <Cell.Group title='添加站点' className='route-group'>
          <StopPicker />
        </Cell.Group>
      )}

      {readOnly ? null : (
        <View className='route-footer'>
          <Button block type='primary' className='route-save' loading={d.saving} onClick={() => void save()}>
            {d.id ? '保存修改' : '保存路线'}
          </Button>
        </View>
      )}
    </View>
  )
})

function RouteAddPage() {
  return (
    <PageShell className='route-add-page'>
      <RouteForm />
    </PageShell>
  )
}

export default observer(RouteAddPage)
