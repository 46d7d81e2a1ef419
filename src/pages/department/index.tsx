/**
 * /department: the team's nested departments with their managers and authorised layers;
 * add (top level or below), rename, move, delete; choose managers, layers and the permissions
 * granted on them with the tree-selection component.
 */
import { ActionSheet, Button, Input, Popup } from '@nutui/nutui-react-taro'
import { Text, View } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import { useEffect, useMemo, useState } from 'react'
import type { Department } from '../../../types/teams'
import { DepartmentPicker } from '../../components/DepartmentPicker'
import { PageShell } from '../../components/PageShell'
import { TreeSelect } from '../../components/TreeSelect'
import { TEAM_UI_MSG } from '../../domain/messages'
import { LAYER_PERMISSIONS, PERM, PERMISSION_CATALOGUE } from '../../domain/permissions'
import { DEPARTMENT_NAME_MAX } from '../../domain/teamRules'
import type { TreeId } from '../../domain/treeSelect'
import { useStores } from '../../stores/context'
import './index.scss'
import { teamStores } from '../../stores/teamStores'
import { DeleteConfirm } from '../../components/DeleteConfirm'

type Action = 'child' | 'rename' | 'move' | 'managers' | 'layers' | 'delete'
const ACTIONS: { name: string; action: Action; danger?: boolean }[] = [
  { name: '添加下级部门', action: 'child' },
  { name: '重命名', action: 'rename' },
  { name: '移动到…', action: 'move' },
  { name: '设置负责人', action: 'managers' },
  { name: '授权图层', action: 'layers' },
  { name: '删除部门', action: 'delete', danger: true },
]

/** What a new layer grant holds unless the manager changes it: seeing the data and its notes. */
const DEFAULT_OPTS = [PERM.LAYER_DATA_LIST, PERM.NOTE_LIST]
const OPT_NODES = PERMISSION_CATALOGUE.filter((p) => (LAYER_PERMISSIONS as string[]).includes(p.id)).map((p) => ({ id: p.id, name: `${p.group} · ${p.name}` }))
const optName = (id: string) => PERMISSION_CATALOGUE.find((p) => p.id === id)?.name ?? id

const DepartmentList = observer(function DepartmentList() {
  const { departments, team, layers, app } = useStores(teamStores)
  const [acting, setActing] = useState<Department | null>(null)
  const [naming, setNaming] = useState<{ id?: number; name: string; parent_id: number } | null>(null)
  const [moving, setMoving] = useState<Department | null>(null)
  const [managersOf, setManagersOf] = useState<Department | null>(null)
  const [layersOf, setLayersOf] = useState<Department | null>(null)
  const [optsFor, setOptsFor] = useState<{ dept: Department; layerIds: number[] } | null>(null)
  const [deleting, setDeleting] = useState<Department | null>(null)

  useEffect(() => {
    void departments.load()
    void team.load()
    void layers.load()
  }, [departments, layers, team])

  const layerNodes = useMemo(() => layers.layers.map((l) => ({ id: l.id, parentId: l.parent_id || null, name: l.name })), [layers.layers])
  const memberNodes = team.members.map((m) => ({ id: m.user.id, name: m.user.nickname || m.user.phone }))
  const memberCount = (id: number) => team.members.filter((m) => m.department_id === id).length

  const saveName = async () => {
    if (naming && (await departments.save(naming))) setNaming(null)
  }

  const pickLayers = (dept: Department, ids: TreeId[]) => {
    const layerIds = ids.map(Number)
    if (!layerIds.length && !dept.layer_ids.length) return
    if (!layerIds.length) {
      void departments.saveLayerAuth(dept.id, [], [])
      return
    }
    setOptsFor({ dept, layerIds })
  }

  const currentOpts = (dept: Department) => dept.layer_auth[0]?.opts ?? DEFAULT_OPTS

  return (
    <View className='departments'>
      <Text className='departments__hint muted'>部门负责人可以管理本部门及下级部门的授权图层；部门成员可以使用本部门和上级部门被授权的图层。</Text>
      {departments.loaded && departments.rows.length === 0 ? <Text className='departments__empty muted'>还没有部门</Text> : null}
      {departments.rows.map(({ department: d, depth }) => (
        <View key={d.id} className='dept' style={{ marginLeft: `${24 + depth * 32}px` }} onClick={() => setActing(d)}>
          <View className='dept__head'>
            <Text className='dept__name'>{d.name}</Text>
            <Text className='dept__count muted'>{memberCount(d.id)}人</Text>
          </View>
          <Text className='dept__line muted'>负责人：{d.managers.length ? d.managers.map((id) => team.memberName(id)).join('、') : '未设置'}</Text>
          <Text className='dept__line muted'>授权图层：{d.layer_ids.length ? d.layer_ids.map((id) => layers.byId.get(id)?.name ?? `#${id}`).join('、') : '无'}</Text>
          {d.layer_auth.length ? <Text className='dept__line muted'>权限：{currentOpts(d).map(optName).join('、')}</Text> : null}
        </View>
      ))}
      <View className='page-pad'>
        <Button block type='primary' className='departments__add' onClick={() => setNaming({ name: '', parent_id: 0 })}>
          添加部门
        </Button>
      </View>

      <ActionSheet
        visible={!!acting}
        title={acting?.name}
        options={ACTIONS}
        cancelText='取消'
        onCancel={() => setActing(null)}
        onSelect={(item) => {
          const d = acting
          setActing(null)
          if (!d) return
          switch ((item as { action: Action }).action) {
            case 'child':
              return setNaming({ name: '', parent_id: d.id })
            case 'rename':
              return setNaming({ id: d.id, name: d.name, parent_id: d.parent_id })
            case 'move':
              return setMoving(d)
            case 'managers':
              if (!team.members.length) app.notify('请先邀请成员加入团队', 'warning')
              return setManagersOf(d)
            case 'layers':
              return setLayersOf(d)
            default:
              return setDeleting(d)
          }
        }}
      />
      <Popup
        visible={!!naming}
        position='bottom'
        round
        closeable
        title={naming?.id ? '重命名部门' : naming?.parent_id ? `在「${departments.nameOf(naming.parent_id)}」下添加部门` : '添加部门'}
        onClose={() => setNaming(null)}
      >
        {naming ? (
          <View className='dept-form'>
            <Input
              className='dept-form__input'
              name='department-name'
              placeholder='请输入部门名称'
              maxLength={DEPARTMENT_NAME_MAX}
              value={naming.name}
              onChange={(v) => setNaming({ ...naming, name: v })}
            />
            <Button block type='primary' className='dept-form__submit' onClick={() => void saveName()}>
              保存
            </Button>
          </View>
        ) : null}
      </Popup>
      <DepartmentPicker
        visible={!!moving}
        title={`移动「${moving?.name ?? ''}」到`}
        value={moving?.parent_id ?? 0}
        choices={moving ? departments.parentChoices(moving.id) : []}
        noneLabel='顶级部门'
        onClose={() => setMoving(null)}
        onPick={(parentId) => {
          const d = moving
          setMoving(null)
          if (d && parentId !== d.parent_id) void departments.save({ id: d.id, name: d.name, parent_id: parentId })
        }}
      />
      <TreeSelect
        visible={!!managersOf}
        title='选择部门负责人'
        nodes={memberNodes}
        value={managersOf?.managers ?? []}
        emptyText='团队还没有其他成员'
        onCancel={() => setManagersOf(null)}
        onConfirm={(ids) => {
          const d = managersOf
          setManagersOf(null)
          if (d) void departments.setManagers(d.id, ids.map(Number))
        }}
      />
      <TreeSelect
        visible={!!layersOf}
        title='选择授权图层'
        nodes={layerNodes}
        value={layersOf?.layer_ids ?? []}
        emptyText='还没有图层'
        onCancel={() => setLayersOf(null)}
        onConfirm={(ids) => {
          const d = layersOf
          setLayersOf(null)
          if (d) pickLayers(d, ids)
        }}
      />
      <TreeSelect
        visible={!!optsFor}
        title='选择图层权限'
        nodes={OPT_NODES}
        value={optsFor ? currentOpts(optsFor.dept) : []}
        onCancel={() => setOptsFor(null)}
        onConfirm={(ids) => {
          const f = optsFor
          if (!f) return
          if (!ids.length) {
            app.notify('请至少选择一项权限', 'warning')
            return
          }
          setOptsFor(null)
          void departments.saveLayerAuth(f.dept.id, f.layerIds, ids.map(String))
        }}
      />
      <DeleteConfirm
        title='删除部门'
        subject={deleting}
        message={(d) => TEAM_UI_MSG.deleteDepartmentConfirm(d.name)}
        onDelete={(d) => void departments.remove(d.id)}
        onClose={() => setDeleting(null)}
      />
    </View>
  )
})

const Department = observer(function Department() {
  const { team } = useStores(teamStores)
  return team.canManage ? <DepartmentList /> : <Text className='departments__empty muted'>部门由团队管理员和管理者设置</Text>
})

function DepartmentPage() {
  return (
    <PageShell className='department-page'>
      <Department />
    </PageShell>
  )
}

export default observer(DepartmentPage)
