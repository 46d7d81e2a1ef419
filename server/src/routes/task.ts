/**
 * /api/task/* (issue 8, TaskApi in types/tasks.ts): the group's tasks (list per scope with counts
 * per status, one, save, delete, start, complete with a check-in). The rules are in
 * services/tasks.ts and src/domain/tasks.ts.
 */
import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import { MAP_MSG, MSG } from '../../../src/domain/messages'
import { TASK_MSG } from '../../../src/domain/taskMessages'
import { TASK_CONTENT_MAX, TASK_DEPARTMENTS_MAX, TASK_PLACE_NAME_MAX, TASK_SCOPES, TASK_STATUSES, TASK_TITLE_MAX, TASK_USERS_MAX } from '../../../src/domain/tasks'
import type { TaskScope, TaskStatus } from '../../../types/tasks'
import { mapCaller } from '../services/permissions'
import { signEnvOf, signProofs } from '../services/signs'
import { completeTask, deleteTaskOf, getTask, listTasks, saveTask, startTask, type TaskEnv } from '../services/tasks'
import { callDefiners, type AppDeps } from './define'
import { idField, pageIndexField } from '../schemas/common'
import { storageOf } from './upload'

/** Tasks per page of the list. */
const TASK_LIST_PAGE_MAX = 100

const taskId = () => idField(TASK_MSG.notFound)

const scopeField = z
  .string({ required_error: MSG.badRequest, invalid_type_error: MSG.badRequest })
  .refine((s) => (TASK_SCOPES as readonly string[]).includes(s), MSG.badRequest)
  .transform((s) => s as TaskScope)

const statusField = z
  .string({ invalid_type_error: MSG.badRequest })
  .refine((s) => (TASK_STATUSES as readonly string[]).includes(s), MSG.badRequest)
  .transform((s) => s as TaskStatus)

const coordinateField = z.number({ required_error: TASK_MSG.placeInvalid, invalid_type_error: TASK_MSG.placeInvalid }).finite(TASK_MSG.placeInvalid)

const listFields = z.object({
  scope: scopeField,
  status: statusField.optional(),
  kw: z.string().trim().max(100).optional(),
  pageindex: pageIndexField(),
  pagesize: z.number().int().min(1).max(TASK_LIST_PAGE_MAX, MAP_MSG.pageSizeTooLarge(TASK_LIST_PAGE_MAX)).default(20),
})

/** Sizes are bounded here so that nothing huge reaches the rules; the exact limits and messages are the domain's. */
const saveFields = z.object({
  id: taskId().optional(),
  title: z.string({ required_error: TASK_MSG.titleRequired, invalid_type_error: TASK_MSG.titleRequired }).max(500, TASK_MSG.titleTooLong(TASK_TITLE_MAX)),
  content: z.string({ invalid_type_error: MSG.badRequest }).max(TASK_CONTENT_MAX * 4, TASK_MSG.contentTooLong(TASK_CONTENT_MAX)).optional(),
  marker_id: idField(TASK_MSG.markerMissing).nullish(),
  place: z
    .object({ name: z.string({ required_error: TASK_MSG.placeNameRequired, invalid_type_error: TASK_MSG.placeNameRequired }).max(500, TASK_MSG.placeNameTooLong(TASK_PLACE_NAME_MAX)), lng: coordinateField, lat: coordinateField })
    .nullish(),
  user_ids: z.array(idField(TASK_MSG.userNotMember), { invalid_type_error: MSG.badRequest }).max(TASK_USERS_MAX * 2, TASK_MSG.tooManyUsers(TASK_USERS_MAX)).default([]),
  department_ids: z
    .array(idField(TASK_MSG.departmentMissing), { invalid_type_error: MSG.badRequest })
    .max(TASK_DEPARTMENTS_MAX * 2, TASK_MSG.tooManyDepartments(TASK_DEPARTMENTS_MAX))
    .default([]),
  due_date: z.string({ invalid_type_error: TASK_MSG.dueDateInvalid }).max(20, TASK_MSG.dueDateInvalid).nullish(),
})

export function taskRoutes(app: FastifyInstance, deps: AppDeps): void {
  const { db, clock } = deps
  const { sessionCall } = callDefiners(app, deps)
  // A done task's proof is presented (and verified) by the check-in slice.
  const env: TaskEnv = { db, proofs: signProofs(signEnvOf(deps, storageOf(app, deps))) }

  sessionCall('/api/task/getlist', listFields, async ({ scope, status, kw, pageindex, pagesize }, caller) =>
    listTasks(env, await mapCaller(db.kysely, caller), { scope, status, kw }, { pageindex, pagesize }, clock.now()),
  )

  sessionCall('/api/task/getbyid', z.object({ id: taskId() }), async ({ id }, caller) => getTask(env, await mapCaller(db.kysely, caller), id, clock.now()))

  sessionCall('/api/task/save', saveFields, async (input, caller) =>
    saveTask(env, await mapCaller(db.kysely, caller), { ...input, marker_id: input.marker_id ?? null, place: input.place ?? null, due_date: input.due_date ?? null }, clock.now()),
  )

  sessionCall('/api/task/delete', z.object({ id: taskId() }), async ({ id }, caller) => {
    await deleteTaskOf(env, await mapCaller(db.kysely, caller), id)
    return null
  })

  sessionCall('/api/task/start', z.object({ id: taskId() }), async ({ id }, caller) => startTask(env, await mapCaller(db.kysely, caller), id, clock.now()))

  sessionCall('/api/task/complete', z.object({ id: taskId(), sign_id: idField(TASK_MSG.signRequired) }), async ({ id, sign_id }, caller) =>
    completeTask(env, await mapCaller(db.kysely, caller), id, sign_id, clock.now()),
  )
}
