/** Chooses one department of the team (indented tree), or none. */
import { Popup } from '@nutui/nutui-react-taro'
import { Text, View } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import type { Department } from '../../../types/teams'
import { useStores } from '../../stores/context'
import './index.scss'
import { teamStores } from '../../stores/teamStores'

export interface DepartmentPickerProps {
  visible: boolean
  title: string
  value: number
  /** Departments that may be chosen (default: all). */
  choices?: Department[]
  /** Label of the "none" choice (top level / no department). */
  noneLabel: string
  onClose: () => void
  onPick: (departmentId: number) => void
}

export const DepartmentPicker = observer(function DepartmentPicker({ visible, title, value, choices, noneLabel, onClose, onPick }: DepartmentPickerProps) {
  const { departments } = useStores(teamStores)
  const allowed = new Set((choices ?? departments.list).map((d) => d.id))
  const rows = departments.rows.filter((r) => allowed.has(r.department.id))
  const Row = ({ id, name, depth }: { id: number; name: string; depth: number }) => (
    <View className={`dept-pick__row ${id === value ? 'dept-pick__row--on' : ''}`} style={{ paddingLeft: `${32 + depth * 40}px` }} onClick={() => onPick(id)}>
      <Text className='dept-pick__name'>{name}</Text>
      {id === value ? <Text className='dept-pick__check'>✓</Text> : null}
    </View>
  )
  return (
    <Popup visible={visible} position='bottom' round closeable title={title} onClose={onClose}>
      <View className='dept-pick'>
        <Row id={0} name={noneLabel} depth={0} />
        {rows.map((r) => (
          <Row key={r.department.id} id={r.department.id} name={r.department.name} depth={r.depth} />
        ))}
      </View>
    </Popup>
  )
})
