/**
 * Task rules (types/tasks.ts): the status shown (overdue once the due day has passed on
 * the Shanghai calendar and the task is not done), input checks with their Chinese messages,
 * state transitions (start: open -> doing; complete: open/doing -> done; a done task changes no
 * more), who may do what (create task_add; edit creator or manager; delete task_delete;
 * start/complete an assignee) and how department assignments reach down the tree.
 */
import type { TaskInput } from '../../types/tasks'
import { PERM } from '../../src/domain/permissions'
import { TASK_MSG, TASK_STATUS_TEXT } from '../../src/domain/taskMessages'
import {
  TASK_CONTENT_MAX,
  TASK_DEPARTMENTS_MAX,
  TASK_TITLE_MAX,
  TASK_USERS_MAX,
  canCreateTask,
  canListAllTasks,
  checkDueDate,
  earliestDueDate,
  checkTaskInput,
  departmentScope,
  isAssignee,
  isCalendarDay,
  nextState,
  reachingDepartmentIds,
  shanghaiToday,
  stateProblem,
  taskAbilities,
  taskStatus,
} from '../../src/domain/tasks'

describe('status (overdue by the Shanghai calendar)', () => {
  it('reads the status texts of the task centre', () => {
    expect(TASK_STATUS_TEXT).toEqual({ open: '待处理', doing: '进行中', done: '已完成', overdue: '已逾期' })
  })

  it('takes the day in Shanghai (UTC+8), not UTC', () => {
    expect(shanghaiToday(new Date('2025-06-01T15:59:59Z'))).toBe('2025-06-01')
    expect(shanghaiToday(new Date('2025-06-01T16:00:00Z'))).toBe('2025-06-02')
  })

  it('is overdue only once the due day has passed and the task is not done', () => {
    expect(taskStatus('open', '2025-06-01', '2025-06-01')).toBe('open')
    expect(taskStatus('doing', '2025-06-01', '2025-06-01')).toBe('doing')
    expect(taskStatus('open', '2025-06-01', '2025-06-02')).toBe('overdue')
    expect(taskStatus('doing', '2025-05-31', '2025-06-02')).toBe('overdue')
    expect(taskStatus('done', '2025-05-31', '2025-06-02')).toBe('done')
    expect(taskStatus('open', null, '2099-01-01')).toBe('open')
  })
})

describe('input checks', () => {
  const today = '2025-06-01'
  const input = (fields: Partial<TaskInput> = {}): TaskInput => ({ title: '巡查东门消防栓', user_ids: [2], department_ids: [], ...fields })

  it('accepts a task with a title and one assignee', () => {
    expect(checkTaskInput(input(), today)).toBeNull()
    expect(checkTaskInput(input({ user_ids: [], department_ids: [5] }), today)).toBeNull()
  })

  it('needs a title within the limit, content within the limit', () => {
    expect(checkTaskInput(input({ title: '   ' }), today)).toBe(TASK_MSG.titleRequired)
    expect(checkTaskInput(input({ title: '任'.repeat(TASK_TITLE_MAX) }), today)).toBeNull()
    expect(checkTaskInput(input({ title: '任'.repeat(TASK_TITLE_MAX + 1) }), today)).toBe(TASK_MSG.titleTooLong(TASK_TITLE_MAX))
    expect(checkTaskInput(input({ content: '内'.repeat(TASK_CONTENT_MAX + 1) }), today)).toBe(TASK_MSG.contentTooLong(TASK_CONTENT_MAX))
    expect(TASK_MSG.titleTooLong(50)).toBe('任务标题不能超过50个字')
  })

  it('needs at least one assignee, and not too many', () => {
    expect(checkTaskInput(input({ user_ids: [], department_ids: [] }), today)).toBe('请至少指派一名成员或一个部门')
    const many = (n: number) => Array.from({ length: n }, (_, i) => i + 1)
    expect(checkTaskInput(input({ user_ids: many(TASK_USERS_MAX + 1) }), today)).toBe(TASK_MSG.tooManyUsers(TASK_USERS_MAX))
    expect(checkTaskInput(input({ department_ids: many(TASK_DEPARTMENTS_MAX + 1) }), today)).toBe(TASK_MSG.tooManyDepartments(TASK_DEPARTMENTS_MAX))
  })

  it('takes a marker or a place, not both, and checks the place', () => {
    const place = { name: '东门', lng: 116.4, lat: 39.9 }
    expect(checkTaskInput(input({ place }), today)).toBeNull()
    expect(checkTaskInput(input({ place, marker_id: 3 }), today)).toBe(TASK_MSG.markerAndPlace)
    expect(checkTaskInput(input({ place: { ...place, name: ' ' } }), today)).toBe(TASK_MSG.placeNameRequired)
    expect(checkTaskInput(input({ place: { ...place, lat: 95 } }), today)).toBe(TASK_MSG.placeInvalid)
    expect(checkTaskInput(input({ place: { ...place, lng: 0, lat: 0 } }), today)).toBe(TASK_MSG.placeInvalid)
  })

  it('takes a real calendar day as due day, not before today unless it is the saved one', () => {
    expect(isCalendarDay('2025-02-28')).toBe(true)
    expect(isCalendarDay('2025-02-30')).toBe(false)
    expect(isCalendarDay('2025-6-1')).toBe(false)
    expect(checkDueDate('2025-06-01', today)).toBeNull()
    expect(checkDueDate(null, today)).toBeNull()
    expect(checkDueDate('2025-05-31', today)).toBe('截止日期不能早于今天')
    expect(checkDueDate('2025-05-31', today, '2025-05-31')).toBeNull()
    expect(checkDueDate('2025-13-01', today)).toBe(TASK_MSG.dueDateInvalid)
    expect(checkTaskInput(input({ due_date: '2025-05-30' }), today, '2025-05-31')).toBe(TASK_MSG.dueDatePast)
  })

  it('offers due days from today, or from the passed due day the task already had', () => {
    expect(earliestDueDate(today)).toBe(today)
    expect(earliestDueDate(today, '2025-05-31')).toBe('2025-05-31')
    expect(earliestDueDate(today, '2025-06-09')).toBe(today)
  })
})

describe('state transitions', () => {
  it('starts an open task, completes an open or doing one, changes a done one no more', () => {
    expect(nextState('open', 'start')).toBe('doing')
    expect(nextState('doing', 'start')).toBeNull()
    expect(nextState('done', 'start')).toBeNull()
    expect(nextState('open', 'complete')).toBe('done')
    expect(nextState('doing', 'complete')).toBe('done')
    expect(nextState('done', 'complete')).toBeNull()
  })

  it('says why not', () => {
    expect(stateProblem('done', 'edit')).toBe('任务已完成，不能再修改')
    expect(stateProblem('done', 'complete')).toBe(TASK_MSG.doneLocked)
    expect(stateProblem('doing', 'start')).toBe(TASK_MSG.alreadyStarted)
    expect(stateProblem('doing', 'edit')).toBeNull()
    expect(stateProblem('open', 'complete')).toBeNull()
  })
})

describe('departments', () => {
  // 1 总部 > 2 工程部 > 3 一组; 4 销售部
  const tree = [
    { id: 1, parent_id: 0 },
    { id: 2, parent_id: 1 },
    { id: 3, parent_id: 2 },
    { id: 4, parent_id: 0 },
  ]

  it('a department assignment reaches the members of the department and of its child departments', () => {
    expect(reachingDepartmentIds(tree, 3).sort()).toEqual([1, 2, 3])
    expect(isAssignee({ user_ids: [], department_ids: [2] }, 9, reachingDepartmentIds(tree, 3))).toBe(true)
    expect(isAssignee({ user_ids: [], department_ids: [3] }, 9, reachingDepartmentIds(tree, 2))).toBe(false)
    expect(isAssignee({ user_ids: [], department_ids: [4] }, 9, reachingDepartmentIds(tree, 3))).toBe(false)
    expect(isAssignee({ user_ids: [9], department_ids: [] }, 9, [])).toBe(true)
    expect(reachingDepartmentIds(tree, 0)).toEqual([])
    expect(reachingDepartmentIds(tree, 77)).toEqual([])
  })

  it("the department scope: the member's department and its children, plus a department manager's subtrees", () => {
    const member = departmentScope(tree, { userId: 9, departmentId: 2, managedDepartmentIds: [] })
    expect(member.members.sort()).toEqual([2, 3])
    expect(member.assigned.sort()).toEqual([1, 2, 3])
    const manager = departmentScope(tree, { userId: 9, departmentId: 0, managedDepartmentIds: [4] })
    expect(manager).toEqual({ members: [4], assigned: [4] })
    expect(departmentScope(tree, { userId: 9, departmentId: 0, managedDepartmentIds: [] })).toEqual({ members: [], assigned: [] })
  })
})

describe('who may do what', () => {
  const manager = { is_admin: false, is_manager: true, modules: [] }
  const member = { is_admin: false, is_manager: false, modules: [PERM.MODULE_DISPATCH] }
  const adder = { ...member, modules: [PERM.MODULE_DISPATCH, PERM.TASK_ADD] }
  const deleter = { ...member, modules: [PERM.MODULE_DISPATCH, PERM.TASK_DELETE] }

  it('creates with task_add (managers always); lists all as a manager only', () => {
    expect(canCreateTask(manager)).toBe(true)
    expect(canCreateTask(adder)).toBe(true)
    expect(canCreateTask(member)).toBe(false)
    expect(canListAllTasks(manager)).toBe(true)
    expect(canListAllTasks(adder)).toBe(false)
  })

  it('edits as the creator or a manager while not done; deletes with task_delete; starts and completes as an assignee', () => {
    const task = { creator_id: 1, state: 'open' as const }
    expect(taskAbilities(task, adder, 1, false)).toEqual({ edit: true, delete: false, start: false, complete: false })
    expect(taskAbilities(task, member, 2, true)).toEqual({ edit: false, delete: false, start: true, complete: true })
    expect(taskAbilities(task, deleter, 2, false)).toEqual({ edit: false, delete: true, start: false, complete: false })
    expect(taskAbilities(task, manager, 3, false)).toEqual({ edit: true, delete: true, start: false, complete: false })
    expect(taskAbilities({ creator_id: 1, state: 'doing' }, member, 2, true)).toMatchObject({ start: false, complete: true })
    expect(taskAbilities({ creator_id: 1, state: 'done' }, manager, 1, true)).toEqual({ edit: false, delete: true, start: false, complete: false })
  })
})
