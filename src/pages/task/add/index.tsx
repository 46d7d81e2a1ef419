/**
 * /task/add: create a task, or edit one with ?id= (the creator or a manager, until it is
 * done): title, content, place (a marker of the group found by search, as /route/add does, or the
 * current position), assignees (members and departments of the team), due day (DatePicker),
 * save. The rules are src/domain/tasks.ts's (checked before the call) and the server's.
 */
import { Button, Cell, DatePicker, Input, Popup, SearchBar, TextArea } from '@nutui/nutui-react-taro'
import { Text, View } from '@tarojs/components'
import { useRouter } from '@tarojs/taro'
import { observer } from 'mobx-react-lite'
import { useEffect, useState } from 'react'
import { PageShell } from '../../../components/PageShell'
import { TASK_MSG } from '../../../domain/taskMessages'
import { TASK_CONTENT_MAX, TASK_TITLE_MAX, earliestDueDate, shanghaiToday } from '../../../domain/tasks'
import { useStores } from '../../../stores/context'
import './index.scss'
import { taskStores } from '../../../stores/taskStores'
import { teamStores } from '../../../stores/teamStores'

function param(v: string | undefined): string {
  if (!v) return ''
  try {
    return v.includes('%') ? decodeURIComponent(v) : v
  } catch {
    return v
  }
}

const pad = (n: number) => String(n).padStart(2, '0')

const PlacePicker = observer(function PlacePicker() {
  const root = useStores(taskStores)
  const { app, layers, tracker } = root
  const d = root.task.draft
  const [locating, setLocating] = useState(false)

  const fillMyPosition = async () => {
    setLocating(true)
    // Through the tracker: a refusal shows the 权限错误 dialog, any other failure says so.
    const p = await tracker.locateNow()
    setLocating(false)
    if (p) d.pickPosition({ lng: p.lng, lat: p.lat })
  }

  return (
    <View className='task-place'>
      <View className='task-place__now'>
        <Text className={`task-place__name ${d.at ? '' : 'task-place__name--any'}`}>
          {d.at ? `${d.at.kind === 'marker' ? '标注：' : ''}${d.placeName}` : `${TASK_MSG.noPlace}（任何位置签到均可）`}
        </Text>
        {d.at ? (
          <Text className='task-place__clear' onClick={() => d.clearPlace()}>
            {TASK_MSG.clearPlace}
          </Text>
        ) : null}
      </View>
      <SearchBar
        className='task-place__search'
        placeholder={TASK_MSG.searchPlaceholder}
        value={d.markerSearch.kw}
        onChange={(v) => d.markerSearch.setKw(v)}
        onSearch={(v) => void d.markerSearch.search(v)}
        onClear={() => d.markerSearch.clear()}
        right={
          <Text className='task-place__go' onClick={() => void d.markerSearch.search()}>
            搜索
          </Text>
        }
      />
      {d.markerSearch.searched && !d.markerSearch.results.length ? <Text className='task-place__empty muted'>{TASK_MSG.searchEmpty}</Text> : null}
      {d.markerSearch.results.map((m) => (
        <View key={m.id} className='task-result'>
          <View className='task-result__body'>
            <Text className='task-result__name'>{m.name}</Text>
            <Text className='task-result__layer muted'>{layers.byId.get(m.layer_id)?.name ?? ''}</Text>
          </View>
          <Button
            size='small'
            fill='outline'
            type='primary'
            className='task-result__pick'
            onClick={() => {
              const problem = d.pickMarker(m)
              if (problem) app.notify(problem, 'warning')
            }}
          >
            选择
          </Button>
        </View>
      ))}
      <Button size='small' className='task-place__locate' loading={locating} onClick={() => void fillMyPosition()}>
        使用我的位置
      </Button>
    </View>
  )
})

const AssigneePicker = observer(function AssigneePicker({ kind, visible, onClose }: { kind: 'users' | 'departments'; visible: boolean; onClose: () => void }) {
  const { team, departments, task } = useStores(taskStores, teamStores)
  const d = task.draft
  const rows =
    kind === 'users'
      ? team.members.map((m) => ({ id: m.user.id, name: m.user.nickname || m.user.phone, sub: departments.pathLabel(m.department_id), depth: 0, on: d.userIds.includes(m.user.id) }))
      : departments.rows.map((r) => ({ id: r.department.id, name: r.department.name, sub: '', depth: r.depth, on: d.departmentIds.includes(r.department.id) }))
  return (
    <Popup visible={visible} position='bottom' round closeable title={kind === 'users' ? TASK_MSG.pickAssignees : TASK_MSG.pickDepartments} onClose={onClose}>
      <View className='task-pick'>
        {kind === 'departments' ? <Text className='task-pick__hint muted'>指派给部门后，部门及其下级部门的成员都可以执行</Text> : null}
        {rows.length === 0 ? <Text className='task-pick__hint muted'>{kind === 'users' ? '暂无成员' : '暂无部门，可在“部门管理”中添加'}</Text> : null}
        {rows.map((r) => (
          <View
            key={r.id}
            className={`task-pick__row ${r.on ? 'task-pick__row--on' : ''}`}
            style={{ paddingLeft: `${32 + r.depth * 40}px` }}
            onClick={() => (kind === 'users' ? d.toggleUser(r.id) : d.toggleDepartment(r.id))}
          >
            <View className='task-pick__text'>
              <Text className='task-pick__name'>{r.name}</Text>
              {r.sub ? <Text className='task-pick__sub muted'>{r.sub}</Text> : null}
            </View>
            <Text className='task-pick__check'>{r.on ? '✓' : ''}</Text>
          </View>
        ))}
        <Button block type='primary' className='task-pick__done' onClick={onClose}>
          确定
        </Button>
      </View>
    </Popup>
  )
})

const TaskForm = observer(function TaskForm() {
  const root = useStores(taskStores, teamStores)
  const { layers, team, departments } = root
  const store = root.task
  const d = store.draft
  const router = useRouter()
  const [ready, setReady] = useState(false)
  const [missing, setMissing] = useState(false)
  const [picking, setPicking] = useState<'users' | 'departments' | null>(null)
  const [pickingDay, setPickingDay] = useState(false)
  const id = Number(param(router.params.id))

  useEffect(() => {
    // Layer names for the search results; members and departments to assign.
    if (!layers.loaded) void layers.load()
    void team.load()
    void departments.load()
    void (async () => {
      if (id > 0) setMissing(!(await d.startEdit(id)))
      else d.startNew()
      setReady(true)
    })()
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the draft of the task in the address, started once when the page opens
  }, [])

  if (!ready || d.loading) return <View className='task-form__loading muted'>加载中…</View>
  if (missing) return <View className='task-form__loading muted'>{TASK_MSG.notFound}</View>
  if (!id && !store.canAdd) return <View className='task-form__loading muted'>{TASK_MSG.addForbidden}</View>

  const save = async () => {
    const saved = await d.save()
    if (!saved) return
    // Back to the task centre that opened this form; opened directly, go to it instead.
    root.navigateBack('/task')
  }

  const userNames = d.userIds.map((u) => team.memberByUserId(u)?.user.nickname || store.current?.users.find((x) => x.id === u)?.nickname || '成员')
  const departmentNames = d.departmentIds.map((x) => departments.nameOf(x) || '部门')
  const today = shanghaiToday(new Date())

  return (
    <View className='task-form'>
      {d.id ? <Text className='task-form__heading'>{TASK_MSG.editTitle}</Text> : null}
      <Cell.Group title='任务' className='task-group'>
        <View className='task-row'>
          <Text className='task-label'>标题</Text>
          <Input className='task-input' name='task-title' placeholder={TASK_MSG.titlePlaceholder} maxLength={TASK_TITLE_MAX} value={d.title} onChange={(v) => d.setTitle(v)} />
        </View>
        <View className='task-row task-row--top'>
          <Text className='task-label'>内容</Text>
          <TextArea className='task-textarea' placeholder={TASK_MSG.contentPlaceholder} maxLength={TASK_CONTENT_MAX} value={d.content} onChange={(v) => d.setContent(v)} autoSize />
        </View>
      </Cell.Group>

      <Cell.Group title={TASK_MSG.place} className='task-group'>
        <PlacePicker />
      </Cell.Group>

      <Cell.Group title={TASK_MSG.assignees} className='task-group'>
        <Cell className='task-pick-users' title='成员' extra={userNames.length ? userNames.join('、') : '未选择'} clickable onClick={() => setPicking('users')} />
        <Cell className='task-pick-departments' title='部门' extra={departmentNames.length ? departmentNames.join('、') : '未选择'} clickable onClick={() => setPicking('departments')} />
      </Cell.Group>

      <Cell.Group title={TASK_MSG.dueDate} className='task-group'>
        <Cell className='task-due' title='截止日期' description='取消选择即不设截止日期' extra={d.dueDate ?? TASK_MSG.noDue} clickable onClick={() => setPickingDay(true)} />
      </Cell.Group>

      <View className='task-footer'>
        <Button block type='primary' className='task-save' loading={d.saving} onClick={() => void save()}>
          {d.id ? '保存修改' : '发布任务'}
        </Button>
      </View>

      <AssigneePicker kind={picking ?? 'users'} visible={picking !== null} onClose={() => setPicking(null)} />
      <DatePicker
        title='截止日期'
        type='date'
        visible={pickingDay}
        startDate={new Date(`${earliestDueDate(today, d.savedDue)}T00:00:00`)}
        endDate={new Date(new Date().getFullYear() + 5, 11, 31)}
        value={d.dueDate ? new Date(`${d.dueDate}T00:00:00`) : undefined}
        showChinese
        onCancel={() => {
          setPickingDay(false)
          d.setDueDate(null)
        }}
        onClose={() => setPickingDay(false)}
        onConfirm={(_opts, values) => {
          const [y, m, day] = values
          d.setDueDate(`${y}-${pad(Number(m))}-${pad(Number(day))}`)
          setPickingDay(false)
        }}
      />
    </View>
  )
})

function TaskAddPage() {
  return (
    <PageShell className='task-add-page'>
      <TaskForm />
    </PageShell>
  )
}

export default observer(TaskAddPage)
