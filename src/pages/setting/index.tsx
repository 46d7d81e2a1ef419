/**
 * /system/setting: the map type and style elements this platform's map can switch (SPEC 3
 * map_style and the base layers), whether cluster badges show counts (the user's choice over the
 * team's show_marker_cluster_count), and the units lengths and areas are shown in: each kept on the
 * phone with the other base settings. Below them, kept on the server: whether the position goes to
 * the team, and the devices signed in to the account with 退出其他设备.
 */
import { Button, Cell, Dialog, Radio, Switch } from '@nutui/nutui-react-taro'
import { Text, View } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import { useEffect, useState } from 'react'
import { PageShell } from '../../components/PageShell'
import { APP_MSG, AREA_UNIT_LABELS, MAP_TYPE_LABELS } from '../../domain/appMessages'
import { AREA_UNITS, formatArea, isAreaUnit } from '../../domain/points'
import { DEVICES_MSG, LOCATION_SHARE_MSG } from '../../domain/consentMessages'
import { deviceLabel } from '../../domain/devices'
import { shortTime } from '../../domain/time'
import { useStores } from '../../stores/context'
import './index.scss'

/** A standard football pitch, 105 m by 68 m: the example area shown in the chosen unit. */
const EXAMPLE_AREA_M2 = 105 * 68

const STYLE_ROWS = [
  { key: 'bg', label: '底图', hint: APP_MSG.mapBgHint },
  { key: 'road', label: '道路', hint: undefined },
  { key: 'building', label: '建筑', hint: undefined },
  { key: 'poi', label: '地名标注', hint: undefined },
] as const

const MapSettings = observer(function MapSettings() {
  const { app, platform } = useStores()
  const capabilities = platform.mapCapabilities
  const LAYER_ROWS = [
    { key: 'road_layer', label: '路网', can: capabilities.roadnet },
    { key: 'traffic_layer', label: '实时路况', can: capabilities.traffic },
  ] as const
  return (
    <Cell.Group className='setting-cells' title='地图'>
      {capabilities.satellite ? (
        <Cell className='setting-map-type'>
          <Text className='setting-label'>地图类型</Text>
          <Radio.Group className='setting-choice' value={app.satellite_layer ? 1 : 0} direction='horizontal' onChange={(v) => app.setBaseLayer('satellite_layer', Number(v) === 1)}>
            <Radio value={0} shape='button'>
              {MAP_TYPE_LABELS[0]}
            </Radio>
            <Radio value={1} shape='button'>
              {MAP_TYPE_LABELS[1]}
            </Radio>
          </Radio.Group>
        </Cell>
      ) : null}
      {LAYER_ROWS.filter((l) => l.can).map((l) => (
        <Cell key={l.key} title={l.label} align='center' extra={<Switch checked={app[l.key]} onChange={(v) => app.setBaseLayer(l.key, v)} />} />
      ))}
      {STYLE_ROWS.filter((r) => capabilities.features.includes(r.key)).map((r) => (
        <Cell
          key={r.key}
          className={`setting-style-${r.key}`}
          title={r.label}
          description={r.hint}
          align='center'
          extra={<Switch checked={app.map_style[r.key]} onChange={(v) => app.setMapStyle(r.key, v)} />}
        />
      ))}
      <Cell
        className='setting-cluster-count'
        title='显示聚合数量'
        description={APP_MSG.clusterCountHint}
        align='center'
        extra={<Switch checked={app.clusterCountShown} onChange={(v) => app.setClusterCountShown(v)} />}
      />
    </Cell.Group>
  )
})

const UnitSettings = observer(function UnitSettings() {
  const { app } = useStores()
  return (
    <Cell.Group className='setting-cells' title='单位'>
      <Cell title='长度单位' extra={APP_MSG.lengthUnitAuto} />
      {/* A Cell with children shows only them: the label and the example are part of the body. */}
      <Cell className='setting-area-unit'>
        <Text className='setting-label'>面积单位</Text>
        <Text className='setting-hint'>{APP_MSG.areaUnitExample(formatArea(EXAMPLE_AREA_M2, app.area_unit))}</Text>
        <Radio.Group className='setting-choice' value={app.area_unit} direction='horizontal' onChange={(v) => isAreaUnit(v) && app.setAreaUnit(v)}>
          {AREA_UNITS.map((u) => (
            <Radio key={u} value={u} shape='button'>
              {AREA_UNIT_LABELS[u]}
            </Radio>
          ))}
        </Radio.Group>
      </Cell>
    </Cell.Group>
  )
})

/** Whether the user's position goes to their team: kept on the server, so a team stops getting it at once. */
const LocationSharing = observer(function LocationSharing() {
  const { tracker } = useStores()
  useEffect(() => {
    void tracker.loadSharing()
  }, [tracker])
  return (
    <Cell.Group className='setting-cells' title='隐私'>
      <Cell
        className='setting-location-share'
        title={LOCATION_SHARE_MSG.settingTitle}
        description={LOCATION_SHARE_MSG.settingHint}
        align='center'
        extra={<Switch checked={tracker.sharing !== false} onChange={(v) => void tracker.setSharing(v)} />}
      />
    </Cell.Group>
  )
})

/** The devices signed in to this account, this one first, and signing the others out. */
const Devices = observer(function Devices() {
  const { consent } = useStores()
  const [confirming, setConfirming] = useState(false)
  useEffect(() => {
    void consent.loadDevices()
  }, [consent])
  const others = consent.devices.filter((d) => !d.current).length
  return (
    <Cell.Group className='setting-cells setting-devices' title={DEVICES_MSG.title}>
      {consent.devices.map((d) => (
        <Cell
          key={d.id}
          className={`setting-device${d.current ? ' setting-device--current' : ''}`}
          title={deviceLabel(d.device, d.os)}
          description={DEVICES_MSG.lastActive(shortTime(d.last_seen_at))}
          extra={d.current ? DEVICES_MSG.current : undefined}
        />
      ))}
      <View className='setting-devices__action'>
        <Button block fill='outline' type='danger' className='setting-signout-others' disabled={!consent.devicesLoaded || others === 0 || consent.signingOut} onClick={() => setConfirming(true)}>
          {others === 0 && consent.devicesLoaded ? DEVICES_MSG.onlyThis : DEVICES_MSG.signOutOthers}
        </Button>
      </View>
      <Dialog
        className='setting-signout-dialog dialog--destructive'
        title={DEVICES_MSG.signOutOthers}
        visible={confirming}
        content={DEVICES_MSG.confirm}
        confirmText={DEVICES_MSG.signOutOthers}
        cancelText='取消'
        onConfirm={() => {
          setConfirming(false)
          void consent.signOutOthers()
        }}
        onCancel={() => setConfirming(false)}
      />
    </Cell.Group>
  )
})

function SettingPage() {
  const { app } = useStores()

  // The team's default for cluster counts comes with the system config.
  useEffect(() => {
    void app.loadConfig()
  }, [app])

  return (
    <PageShell className='setting-page'>
      <MapSettings />
      <UnitSettings />
      <View className='setting-foot muted'>{APP_MSG.settingsKeptLocally}</View>
      <LocationSharing />
      <Devices />
    </PageShell>
  )
}

export default observer(SettingPage)
