/**
 * The tree-selection popup (SPEC 4, used by roles, departments and sharing): rows indented by
 * depth, a tick per row that follows src/domain/treeSelect (descendants and ancestors, mandatory
 * items refused with the SPEC warning), select all / invert, cancel and confirm.
 */
import { Button, Checkbox, Popup } from '@nutui/nutui-react-taro'
import { Text, View } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import { useEffect, useMemo, useState } from 'react'
import { depthOf, normalizeChecked, tickState, treeOrder, treeSelect, type TreeId, type TreeSelectAction, type TreeSelectNode } from '../../domain/treeSelect'
import { useStores } from '../../stores/context'
import './index.scss'

export interface TreeSelectProps {
  visible: boolean
  title: string
  nodes: TreeSelectNode[]
  value: readonly TreeId[]
  /** Shown when the tree is empty. */
  emptyText?: string
  onCancel: () => void
  onConfirm: (checked: TreeId[]) => void
}

export const TreeSelect = observer(function TreeSelect({ visible, title, nodes, value, emptyText, onCancel, onConfirm }: TreeSelectProps) {
  const { app } = useStores()
  const [checked, setChecked] = useState<TreeId[]>([])
  const ordered = useMemo(() => treeOrder(nodes), [nodes])
  const depth = useMemo(() => depthOf(nodes), [nodes])

  useEffect(() => {
    if (visible) setChecked(normalizeChecked(nodes, value))
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the ticks start from `value` when the sheet opens; after that they are the user's until confirmed
  }, [visible])

  const act = (action: TreeSelectAction) => {
    const res = treeSelect(nodes, checked, action)
    if (res.warning) app.notify(res.warning, 'warning')
    setChecked(res.checked)
  }
  const allTicked = nodes.length > 0 && checked.length === nodes.length

  return (
    <Popup visible={visible} position='bottom' round closeable title={title} onClose={onCancel} className='tree-select'>
      <View className='tree-select__bar'>
        <Text className='tree-select__count muted'>已选 {checked.length} 项</Text>
        <Text className='tree-select__link' onClick={() => act(allTicked ? { type: 'clear' } : { type: 'selectAll' })}>
          {allTicked ? '全不选' : '全选'}
        </Text>
        <Text className='tree-select__link' onClick={() => act({ type: 'invert' })}>
          反选
        </Text>
      </View>
      <View className='tree-select__list'>
        {ordered.length === 0 ? <Text className='tree-select__empty muted'>{emptyText ?? '暂无可选项'}</Text> : null}
        {ordered.map((n) => {
          const state = tickState(nodes, checked, n.id)
          return (
            <View key={String(n.id)} className='tree-select__row' style={{ paddingLeft: `${24 + (depth.get(n.id) ?? 0) * 40}px` }} onClick={() => act({ type: 'toggle', id: n.id })}>
              <Checkbox className='tree-select__tick' checked={checked.includes(n.id)} indeterminate={state === 'some' && !checked.includes(n.id)} />
              <Text className='tree-select__name'>{n.name}</Text>
              {n.mandatory ? <Text className='tree-select__must muted'>必选</Text> : null}
            </View>
          )
        })}
      </View>
      <View className='tree-select__actions'>
        <Button className='tree-select__cancel' fill='outline' onClick={onCancel}>
          取消
        </Button>
        <Button className='tree-select__confirm' type='primary' onClick={() => onConfirm(checked)}>
          确定
        </Button>
      </View>
    </Popup>
  )
})
