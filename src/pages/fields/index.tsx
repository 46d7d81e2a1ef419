/**
 * /fields?layer_id=: the custom fields of a layer: add, edit, reorder, delete. Without a
 * layer in the address the page lists the layers whose fields the user may manage, to pick one.
 */
import { ArrowRight } from '@nutui/icons-react-taro'
import { Button, Cell, Input, Popup, Radio, Switch, Tag, TextArea } from '@nutui/nutui-react-taro'
import { Text, View } from '@tarojs/components'
import { useRouter } from '@tarojs/taro'
import { observer } from 'mobx-react-lite'
import { useEffect, useState } from 'react'
import type { FieldKind, LayerField } from '../../../types/mapdata'
import { PageShell } from '../../components/PageShell'
import { MAP_UI_MSG } from '../../domain/messages'
import { PERM } from '../../domain/permissions'
import { useStores } from '../../stores/context'
import { FIELD_KINDS, FIELD_NAME_MAX } from '../../domain/fields'
import { FIELD_KIND_NAMES, parseOptions } from '../../stores/FieldStore'
import './index.scss'
import { DeleteConfirm } from '../../components/DeleteConfirm'

interface FormState {
  id?: number
  name: string
  kind: FieldKind
  options: string
  required: boolean
  /** The field as it was when the form opened (its rev goes with the save). */
  base?: LayerField
}

const EMPTY: FormState = { name: '', kind: 'text', options: '', required: false }

/** The layers the layer panel offers 字段管理 on; tapping one opens its fields as the panel does. */
const LayerPick = observer(function LayerPick() {
  const root = useStores()
  const { layers } = root
  useEffect(() => {
    if (!layers.loaded) void layers.load()
  }, [layers])
  const list = layers.fieldLayers
  return (
    <View className='fields'>
      <View className='fields-head'>
        <Text className='fields-head__layer'>选择图层</Text>
        <Text className='fields-head__sub muted'>选择要管理自定义字段的图层</Text>
      </View>
      {layers.loaded && !list.length ? <Text className='fields-empty'>没有可以管理字段的图层</Text> : null}
      {list.length ? (
        <Cell.Group className='fields-layers'>
          {list.map((l) => (
            <Cell
              key={l.id}
              className='fields-layer'
              title={layers.pathLabel(l.id)}
              align='center'
              clickable
              extra={<ArrowRight size={14} color='#C9CDD4' />}
              onClick={() => root.navigate(`/fields?layer_id=${l.id}`)}
            />
          ))}
        </Cell.Group>
      ) : null}
    </View>
  )
})

const FieldList = observer(function FieldList() {
  const { fields, layers } = useStores()
  const router = useRouter()
  const layerId = Number(router.params.layer_id) || 0
  const [form, setForm] = useState<FormState | null>(null)
  const [deleting, setDeleting] = useState<LayerField | null>(null)

  useEffect(() => {
    if (!layers.loaded) void layers.load()
    if (layerId) void fields.load(layerId)
  }, [layerId, fields, layers])

  const layer = layers.byId.get(layerId)
  const list = fields.fieldsOf(layerId)
  const canEdit = layers.can(layer, PERM.LAYER_FIELD)

  const submit = async () => {
    if (!form) return
    const saved = await fields.save({ id: form.id, layer_id: layerId, name: form.name, kind: form.kind, options: parseOptions(form.options), required: form.required, rev: form.base?.rev })
    if (saved) setForm(null)
  }

  if (!layerId) return <LayerPick />

  return (
    <View className='fields'>
      <View className='fields-head'>
        <Text className='fields-head__layer'>{layer ? layers.pathLabel(layer.id) : '图层'}</Text>
        <Text className='fields-head__sub muted'>添加标注时填写这些字段，标注详情中显示</Text>
      </View>

      {list.length === 0 && fields.loadingLayerId !== layerId ? <Text className='fields-empty'>该图层还没有自定义字段</Text> : null}

      {list.map((f, i) => (
        <View key={f.id} className='field-item'>
          <View className='field-item__main'>
            <View className='field-item__title'>
              <Text className='field-item__name'>{f.name}</Text>
              <Tag type='primary' className='field-item__tag'>
                {FIELD_KIND_NAMES[f.kind]}
              </Tag>
              {f.required ? (
                <Tag type='danger' className='field-item__tag'>
                  必填
                </Tag>
              ) : null}
            </View>
            {f.kind === 'choice' ? <Text className='field-item__options muted'>选项：{f.options.join('、')}</Text> : null}
          </View>
          {canEdit ? (
            <View className='field-item__actions'>
              <Text className={`field-item__action ${i === 0 ? 'field-item__action--off' : ''}`} onClick={() => i > 0 && void fields.move(layerId, f.id, -1)}>
                上移
              </Text>
              <Text className={`field-item__action ${i === list.length - 1 ? 'field-item__action--off' : ''}`} onClick={() => i < list.length - 1 && void fields.move(layerId, f.id, 1)}>
                下移
              </Text>
              <Text className='field-item__action' onClick={() => setForm({ id: f.id, name: f.name, kind: f.kind, options: f.options.join('\n'), required: f.required, base: f })}>
                编辑
              </Text>
              <Text className='field-item__action field-item__action--danger' onClick={() => setDeleting(f)}>
                删除
              </Text>
            </View>
          ) : null}
        </View>
      ))}

      {canEdit ? (
        <View className='fields-footer'>
          <Button block type='primary' onClick={() => setForm({ ...EMPTY })}>
            新增字段
          </Button>
        </View>
      ) : null}

      <Popup visible={!!form} position='bottom' round closeable title={form?.id ? '编辑字段' : '新增字段'} onClose={() => setForm(null)}>
        {form ? (
          <View className='field-form'>
            <Text className='field-form__label'>字段名称</Text>
            <Input className='field-form__input' placeholder='请输入字段名称' value={form.name} maxLength={FIELD_NAME_MAX} onChange={(v) => setForm({ ...form, name: v })} />
            <Text className='field-form__label'>字段类型</Text>
            <Radio.Group value={form.kind} direction='horizontal' onChange={(v) => setForm({ ...form, kind: v as FieldKind })}>
              {FIELD_KINDS.map((k) => (
                <Radio key={k} value={k} shape='button' className='field-form__kind'>
                  {FIELD_KIND_NAMES[k]}
                </Radio>
              ))}
            </Radio.Group>
            {form.kind === 'choice' ? (
              <>
                <Text className='field-form__label'>选项（每行一个）</Text>
                <TextArea className='field-form__options' placeholder='请输入选项，每行一个' value={form.options} rows={4} onChange={(v) => setForm({ ...form, options: v })} />
              </>
            ) : null}
            <View className='field-form__row'>
              <Text className='field-form__label'>必填</Text>
              <Switch checked={form.required} onChange={(v) => setForm({ ...form, required: v })} />
            </View>
            <Button block type='primary' onClick={() => void submit()}>
              保存字段
            </Button>
          </View>
        ) : null}
      </Popup>

      <DeleteConfirm
        title='删除字段'
        subject={deleting}
        message={(f) => MAP_UI_MSG.deleteFieldConfirm(f.name)}
        onDelete={(f) => void fields.remove(layerId, f.id, f.rev)}
        onClose={() => setDeleting(null)}
      />
    </View>
  )
})

function FieldsPage() {
  return (
    <PageShell className='fields-page'>
      <FieldList />
    </PageShell>
  )
}

export default observer(FieldsPage)
