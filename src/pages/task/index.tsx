/**
 * /task: the task centre. Tabs 我的 / 部门 / 全部 (managers) / 我创建的 list the tasks of
 * the scope with status chips and their counts; a card shows title, place, assignees, due day and
 * status colour; tapping one opens its detail (content, place, assignees, proof photos) with the
 * actions the caller may take: 开始, 签到完成 (the check-in sheet for the task with a photo, then
 * the completion with the saved record), 编辑, 删除 after a confirmation. The 签到记录 tab lists
 * check-ins (SignList) and works without module_dispatch; the task tabs then say what is missing.
 */
import { Button, Dialog, Image, Popup, SearchBar, Tabs } from '@nutui/nutui-react-taro'
import { Text, View } from '@tarojs/components'
import { useDidShow } from '@tarojs/taro'
import { observer } from 'mobx-react-lite'
import { lazy, Suspense, useEffect, useRef, useState } from 'react'
import type { SignRecord } from '../../../types/signs'
import type { Task, TaskScope, TaskStatus } from '../../../types/tasks'
import { PhotoPreview } from '../../components/PhotoPreview'
import { PageShell } from '../../components/PageShell'
import { NavigateButton } from '../../components/NavigateButton'
import { navPlaceOf } from '../../domain/directions'
import { FEATURES, featureOffer, featureRefusal } from '../../domain/moduleGate'
import { TASK_MSG, TASK_SCOPE_TEXT, TASK_STATUS_TEXT } from '../../domain/taskMessages'
import { TASK_STATUSES } from '../../domain/tasks'
import { dateTime } from '../../domain/time'
import { useStores } from '../../stores/context'
import './index.scss'
import { taskStores } from '../../stores/taskStores'
import { LoadMore } from '../../components/LoadMore'

// The check-in sheet (camera, watermark, upload) and the records list load when first shown.
const CheckInSheet = lazy(() => import('../../components/CheckInSheet'))
const SignList = lazy(() => import('../../components/SignList'))

type Tab = TaskScope | 'signs'

function placeText(task: Task): string {
  return task.marker?.name ?? task.place?.name ?? TASK_MSG.noPlace
}

function assigneeText(task: Task): string {
  return [...task.users.map((u) => u.nickname || '成员'), ...task.departments.map((d) => d.name)].join('、')
}

function dueText(task: Task): string {
  return task.due_date ? TASK_MSG.dueOn(task.due_date) : TASK_MSG.noDue
}

function StatusTag({ status }: { status: TaskStatus }) {
  return <Text className={`task-status task-status--${status}`}>{TASK_STATUS_TEXT[status]}</Text>
}

const TaskCard = observer(function TaskCard({ task }: { task: Task }) {
  const store = useStores(taskStores).task
  return (
    <View className={`task-card task-card--${task.status}`} onClick={() => store.open(task)}>
      <View className='task-card__head'>
        <Text className='task-card__title'>{task.title}</Text>
        <StatusTag status={task.status} />
      </View>
      <Text className='task-card__line'>
        {TASK_MSG.place}：{placeText(task)}
      </Text>
      <Text className='task-card__line muted'>
        {TASK_MSG.assignees}：{assigneeText(task) || '—'}
      </Text>
      <Text className={`task-card__line ${task.status === 'overdue' ? 'task-card__due--overdue' : 'muted'}`}>{dueText(task)}</Text>
    </View>
  )
})

const StatusChips = observer(function StatusChips() {
  const store = useStores(taskStores).task
  const all = TASK_STATUSES.reduce((n, s) => n + store.counts[s], 0)
  return (
    <View className='task-chips'>
      <Text className={`task-chip ${store.status === null ? 'task-chip--on' : ''}`} onClick={() => void store.setStatus(null)}>
        全部状态 {all}
      </Text>
      {TASK_STATUSES.map((s) => (
        <Text key={s} className={`task-chip task-chip--${s} ${store.status === s ? 'task-chip--on' : ''}`} onClick={() => void store.setStatus(s)}>
          {TASK_STATUS_TEXT[s]} {store.counts[s]}
        </Text>
      ))}
    </View>
  )
})

const LockedNotice = observer(function LockedNotice() {
  const root = useStores(taskStores)
  const store = root.task
  return (
    <View className='task-locked'>
      <Text className='task-locked__text'>{store.lockedByTier ? TASK_MSG.lockedNotice : featureRefusal(FEATURES.dispatch, root.session.user?.modules, root.session.user?.level ?? 0)}</Text>
      {store.lockedByTier ? (
        <Button type='primary' className='task-locked__vip' onClick={() => root.navigate('/vip')}>
          {TASK_MSG.goVip}
        </Button>
      ) : null}
    </View>
  )
})

const TaskList = observer(function TaskList() {
  const root = useStores(taskStores)
  const store = root.task
  const [kw, setKw] = useState(store.kw)
  const empty = store.scope === 'mine' ? TASK_MSG.emptyMine : store.scope === 'created' ? TASK_MSG.emptyCreated : TASK_MSG.empty
  return (
    <View className='task-list'>
      <View className='task-bar'>
        <SearchBar className='task-search' placeholder='搜索任务标题、内容' value={kw} onChange={(v) => setKw(v)} onSearch={(v) => void store.search(v)} onClear={() => void store.search('')} />
        {store.canAdd ? (
          <Button type='primary' size='small' className='task-add' onClick={() => root.navigate('/task/add')}>
            {TASK_MSG.add}
          </Button>
        ) : null}
      </View>
      <StatusChips />
      {store.page > 0 && !store.list.length ? <Text className='task-empty muted'>{store.kw.trim() || store.status ? TASK_MSG.empty : empty}</Text> : null}
      {store.list.map((t) => (
        <TaskCard key={t.id} task={t} />
      ))}
      <LoadMore more={store.hasMore} loading={store.loadingList} onMore={() => void store.loadMore()} />
    </View>
  )
})

const Row = ({ label, children }: { label: string; children: React.ReactNode }) => (
  <View className='task-detail__row'>
    <Text className='task-detail__label'>{label}</Text>
    <View className='task-detail__value'>{children}</View>
  </View>
)

const TaskDetail = observer(function TaskDetail() {
  const root = useStores(taskStores)
  const store = root.task
  const task = store.current
  const [confirmDelete, setConfirmDelete] = useState(false)
  // The detail steps aside while the check-in sheet is open, and comes back with the result.
  const [checkingIn, setCheckingIn] = useState(false)
  // Once opened, the sheet stays mounted (it keeps its own state between openings).
  const [sheetUsed, setSheetUsed] = useState(false)
  const [preview, setPreview] = useState(-1)
  const photos = task?.proof?.photos.map((p) => root.notes.photoUrl(p.url)) ?? []
  // 打印 of the task's place on a sheet (with the tier locking it, the page offers the membership).
  const printOffer = featureOffer(FEATURES.print, root.session.user?.modules, root.session.user?.level ?? 0)

  const onSigned = async (record: SignRecord) => {
    setCheckingIn(false)
    if (task) await store.complete(task.id, record.id)
  }

  return (
    <>
      <Popup
        visible={!!task && !checkingIn}
        position='bottom'
        round
        closeable
        title={task?.title ?? ''}
        // NutUI calls onClose whenever the popup hides, also while it steps aside for the sheet.
        onClose={() => {
          if (!checkingIn) store.close()
        }}
        className='task-detail-popup'
      >
        {task ? (
          <View className='task-detail'>
            <View className='task-detail__status'>
              <StatusTag status={task.status} />
              <Text className='muted task-detail__meta'>{TASK_MSG.createdBy(task.creator.nickname || '成员', dateTime(task.created_at))}</Text>
            </View>
            {task.content ? (
              <Row label={TASK_MSG.content}>
                <Text className='task-detail__content'>{task.content}</Text>
              </Row>
            ) : null}
            <Row label={TASK_MSG.place}>
              <View className='task-detail__place'>
                <View className='task-detail__place-text'>
                  <Text>{placeText(task)}</Text>
                  {task.marker || task.place ? (
                    <Text className='muted task-detail__coord'>
                      {(task.marker ?? task.place)!.lng.toFixed(6)}, {(task.marker ?? task.place)!.lat.toFixed(6)}
                    </Text>
                  ) : null}
                </View>
                <NavigateButton place={navPlaceOf(task.marker ?? task.place)} className='task-detail__navigate' />
              </View>
            </Row>
            <Row label={TASK_MSG.assignees}>
              <Text>{assigneeText(task) || '—'}</Text>
            </Row>
            <Row label={TASK_MSG.dueDate}>
              <Text className={task.status === 'overdue' ? 'task-card__due--overdue' : ''}>{task.due_date ?? TASK_MSG.noDue}</Text>
            </Row>
            {task.done_by && task.done_at ? (
              <Row label={TASK_MSG.proof}>
                <Text>{TASK_MSG.doneBy(task.done_by.nickname || '成员', dateTime(task.done_at))}</Text>
                {task.proof ? (
                  <>
                    <Text className='muted task-detail__proof-addr'>{task.proof.addr}</Text>
                    <Text className={`task-detail__verify ${task.proof.verified ? 'task-detail__verify--ok' : 'task-detail__verify--bad'}`}>
                      {task.proof.verified ? '已校验' : '校验失败'} · {task.proof.code}
                    </Text>
                    <View className='task-detail__photos'>
                      {photos.map((url, i) => (
                        <Image key={url} className='task-detail__photo' src={url} width='96px' height='96px' mode='aspectFill' onClick={() => setPreview(i)} />
                      ))}
                    </View>
                  </>
                ) : null}
              </Row>
            ) : null}
            <View className='task-detail__actions'>
              {task.can.start ? (
                <Button type='primary' fill='outline' className='task-start' loading={store.acting} onClick={() => void store.start(task.id)}>
                  {TASK_MSG.start}
                </Button>
              ) : null}
              {task.can.complete ? (
                <Button
                  type='primary'
                  className='task-complete'
                  disabled={store.acting}
                  onClick={() => {
                    setSheetUsed(true)
                    setCheckingIn(true)
                  }}
                >
                  {TASK_MSG.complete}
                </Button>
              ) : null}
              {task.can.edit ? (
                <Button fill='outline' className='task-edit' onClick={() => root.navigate(`/task/add?id=${task.id}`)}>
                  {TASK_MSG.edit}
                </Button>
              ) : null}
              {(task.marker || task.place) && printOffer !== 'hidden' ? (
                <Button fill='outline' className='task-print' onClick={() => root.navigate(`/print?task=${task.id}&name=${encodeURIComponent(task.title)}`)}>
                  {printOffer === 'vip' ? '打印（VIP）' : '打印'}
                </Button>
              ) : null}
              {task.can.delete ? (
                <Button type='danger' fill='outline' className='task-delete' onClick={() => setConfirmDelete(true)}>
                  {TASK_MSG.delete}
                </Button>
              ) : null}
            </View>
          </View>
        ) : null}
      </Popup>
      <Dialog
        className='dialog--destructive'
        title='删除任务'
        visible={confirmDelete}
        content={task ? TASK_MSG.deleteConfirm(task.title) : ''}
        confirmText='删除'
        cancelText='取消'
        onConfirm={() => {
          setConfirmDelete(false)
          if (task) void store.remove(task.id)
        }}
        onCancel={() => setConfirmDelete(false)}
      />
      {sheetUsed && task ? (
        <Suspense fallback={null}>
          <CheckInSheet visible={checkingIn} target={{ task_id: task.id }} title={task.title} requirePhoto onDone={(r) => void onSigned(r)} onClose={() => setCheckingIn(false)} />
        </Suspense>
      ) : null}
      <PhotoPreview urls={photos} index={Math.max(0, preview)} visible={preview >= 0} onClose={() => setPreview(-1)} />
    </>
  )
})

const TaskCentre = observer(function TaskCentre() {
  const store = useStores(taskStores).task
  const [tab, setTab] = useState<Tab>(store.scope)

  // Fresh lists and counts on every visit (back from /task/add, or a module granted meanwhile).
  const visited = useRef(false)
  useDidShow(() => {
    if (visited.current && store.canUse) void store.load(1)
    visited.current = true
  })
  useEffect(() => {
    if (store.canUse) void store.load(1)
  }, [store.canUse, store])

  const pick = (value: Tab) => {
    setTab(value)
    if (value !== 'signs') void store.setScope(value)
  }

  const tabs: Tab[] = [...store.scopes, 'signs']
  return (
    <View className='task-centre'>
      <Tabs value={tab} onChange={(v) => pick(v as Tab)} className='task-tabs' activeType='line'>
        {tabs.map((t) => (
          <Tabs.TabPane key={t} value={t} title={t === 'signs' ? TASK_MSG.signsTab : TASK_SCOPE_TEXT[t]} />
        ))}
      </Tabs>
      {tab === 'signs' ? (
        <Suspense fallback={<Text className='task-empty muted'>加载中…</Text>}>
          <SignList />
        </Suspense>
      ) : store.canUse ? (
        <TaskList />
      ) : (
        <LockedNotice />
      )}
      <TaskDetail />
    </View>
  )
})

function TaskPage() {
  return (
    <PageShell className='task-page'>
      <TaskCentre />
    </PageShell>
  )
}

export default observer(TaskPage)
