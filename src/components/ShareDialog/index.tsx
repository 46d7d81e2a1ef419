/**
 * The share dialog (SPEC 2, 4, 5, 9): a bottom popup titled by kind plus 'data share' —
 * layer picker (type 1 layers only, select all / invert), name, password switch and password,
 * expiry switch and date (from today; the picker opens a week ahead), display switches; on success a dialog with the link and a
 * copy button. State and rules live in ShareStore and src/domain/share.ts.
 */
import { Button, DatePicker, Dialog, Input, Popup, Switch } from '@nutui/nutui-react-taro'
import { Text, View } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import { useEffect, useMemo, useState } from 'react'
import { SHARE_NAME_MAX, SHARE_PWD_MAX } from '../../domain/constants'
import { SHARE_FLAGS, shanghaiDate, shareDialogTitle } from '../../domain/share'
import { useStores } from '../../stores/context'
import { TreeSelect } from '../TreeSelect'
import './index.scss'
import { shareStores } from '../../stores/shareStores'

const pad = (n: number | string) => String(n).padStart(2, '0')

export const ShareDialog = observer(function ShareDialog() {
  const { shares, layers, app } = useStores(shareStores)
  const form = shares.form
  const [picking, setPicking] = useState(false)

  // A share asked for elsewhere on the page (AppStore.requestShare) opens here.
  useEffect(() => {
    const r = app.share_request ? app.takeShareRequest() : null
    if (!r) return
    shares.open(r.type, r.ids, r.name)
    if (r.pickLayers) shares.openLayerPicker()
  }, [app.share_request, app, shares])

  // Shareable layers and the folders above them (folders only group; they are not data).
  const layerNodes = useMemo(() => {
    const keep = new Set<number>()
    for (const l of shares.shareableLayers) {
      let cur = layers.byId.get(l.id)
      while (cur && !keep.has(cur.id)) {
        keep.add(cur.id)
        cur = cur.parent_id ? layers.byId.get(cur.parent_id) : undefined
      }
    }
    return layers.layers.filter((l) => keep.has(l.id)).map((l) => ({ id: l.id, parentId: l.parent_id || null, name: l.name }))
    // eslint-disable-next-line react-hooks/exhaustive-deps -- layers.byId is derived from layers.layers, which is listed
  }, [layers.layers, shares.shareableLayers])

  const dataLabel = form ? (form.type === 1 ? form.data_ids.map((id) => layers.byId.get(id)?.name ?? `#${id}`).join('、') : `${form.data_ids.length}项`) : ''

  return (
    <>
      <Popup visible={!!form} position='bottom' round closeable title={form ? shareDialogTitle(form.type) : ''} onClose={() => shares.close()} className='share-dialog'>
        {form ? (
          <View className='share-form'>
            {form.type === 1 ? (
              <View className='share-row share-row--pick' onClick={() => shares.openLayerPicker()}>
                <Text className='share-row__label'>分享图层</Text>
                <Text className={`share-row__value ${form.data_ids.length ? '' : 'muted'}`}>{form.data_ids.length ? dataLabel : '请选择图层'}</Text>
              </View>
            ) : null}
            <View className='share-row'>
              <Text className='share-row__label'>分享名称</Text>
              <Input className='share-row__input' name='share-name' placeholder='请填写分享名称' maxLength={SHARE_NAME_MAX} value={form.name} onChange={(v) => shares.setName(v)} />
            </View>
            <View className='share-row'>
              <Text className='share-row__label'>访问密码</Text>
              <Switch className='share-pwd-switch' checked={form.need_pwd} onChange={(v) => shares.setPwdSwitch(v)} />
            </View>
            {form.need_pwd ? (
              <View className='share-row'>
                <Text className='share-row__label'>密码</Text>
                <Input className='share-row__input' name='share-pwd' placeholder='请输入分享密码' maxLength={SHARE_PWD_MAX} value={form.pwd} onChange={(v) => shares.setPwd(v)} />
              </View>
            ) : null}
            <View className='share-row'>
              <Text className='share-row__label'>有效期</Text>
              <Switch className='share-exp-switch' checked={form.use_exp} onChange={(v) => shares.setExpSwitch(v)} />
            </View>
            {form.use_exp ? (
              <View className='share-row share-row--pick' onClick={() => setPicking(true)}>
                <Text className='share-row__label'>过期时间</Text>
                <Text className={`share-row__value share-exp ${form.exp ? '' : 'muted'}`}>{form.exp ? `${form.exp} 当天有效` : '请设置过期时间'}</Text>
              </View>
            ) : null}
            <Text className='share-section muted'>分享页面显示</Text>
            {SHARE_FLAGS.filter((f) => !f.routeOnly || form.type === 3).map((f) => (
              <View key={f.flag} className='share-row'>
                <Text className='share-row__label share-row__label--wide'>{f.label}</Text>
                <Switch checked={shares.flagOn(f.flag)} onChange={(v) => shares.setFlag(f.flag, v)} />
              </View>
            ))}
            <Button block type='primary' className='share-submit' loading={shares.saving} onClick={() => void shares.submit()}>
              创建分享
            </Button>
          </View>
        ) : null}
      </Popup>
      <DatePicker
        title='过期时间'
        type='date'
        visible={picking}
        startDate={new Date(`${shanghaiDate(new Date())}T00:00:00`)}
        value={picking ? new Date(`${shares.expPickerDate()}T00:00:00`) : undefined}
        endDate={new Date(new Date().getFullYear() + 10, 11, 31)}
        showChinese
        onCancel={() => {
          setPicking(false)
          shares.setExp(null)
        }}
        onClose={() => setPicking(false)}
        onConfirm={(_opts, values) => {
          const [y, m, d] = values
          shares.setExp(`${y}-${pad(m as number)}-${pad(d as number)}`)
          setPicking(false)
        }}
      />
      <TreeSelect
        visible={shares.pickingLayers}
        title='选择要分享的图层'
        nodes={layerNodes}
        value={form?.data_ids ?? []}
        emptyText='没有可以分享的图层'
        onCancel={() => shares.closeLayerPicker()}
        onConfirm={(ids) => shares.pickLayers(ids)}
      />
      <Dialog
        title='分享成功'
        visible={!!shares.createdLink}
        content={
          <View>
            <Text className='share-link'>{shares.createdLink}</Text>
            {/* The mini-program forwards the new share in a chat as a card with its map (the page's forward hook answers). */}
            {process.env.TARO_ENV === 'weapp' && (
              <Button className='share-forward' block type='primary' fill='outline' openType='share'>
                发给微信好友
              </Button>
            )}
          </View>
        }
        confirmText='复制链接'
        cancelText='关闭'
        onConfirm={() => {
          const link = shares.createdLink
          shares.dismissCreated()
          if (link) void shares.copy(link)
        }}
        onCancel={() => shares.dismissCreated()}
      />
    </>
  )
})
