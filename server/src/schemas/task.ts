/** Zod of /api/task/* (routes/task.ts); the rules are services/tasks.ts's and src/domain/tasks.ts's. */
import { z } from 'zod'
import { MAP_MSG, MSG } from '../../../src/domain/messages'
import { TASK_MSG } from '../../../src/domain/taskMessages'
import { TASK_CONTENT_MAX, TASK_DEPARTMENTS_MAX, TASK_PLACE_NAME_MAX, TASK_SCOPES, TASK_STATUSES, TASK_TITLE_MAX, TASK_USERS_MAX } from '../../../src/domain/tasks'
import type { TaskScope, TaskStatus } from '../../../types/tasks'
import { idField, pageIndexField } from './common'

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

export const listFields = z.object({
  scope: scopeField,
  status: statusField.optional(),
  kw: z.string().trim().max(100).optional(),
  pageindex: pageIndexField(),
  pagesize: z.number().int().min(1).max(TASK_LIST_PAGE_MAX, MAP_MSG.pageSizeTooLarge(TASK_LIST_PAGE_MAX)).default(20),
})

/** Sizes are bounded here so that nothing huge reaches the rules; the exact limits and messages are the domain's. */
export const saveFields = z.object({
  id: taskId().optional(),
  title: z.string({ required_error: TASK_MSG.titleRequired, invalid_type_error: TASK_MSG.titleRequired }).max(500, TASK_MSG.titleTooLong(TASK_TITLE_MAX)),
  content: z
    .string({ invalid_type_error: MSG.badRequest })
    .max(TASK_CONTENT_MAX * 4, TASK_MSG.contentTooLong(TASK_CONTENT_MAX))
    .optional(),
  marker_id: idField(TASK_MSG.markerMissing).nullish(),
  place: z
    .object({
      name: z.string({ required_error: TASK_MSG.placeNameRequired, invalid_type_error: TASK_MSG.placeNameRequired }).max(500, TASK_MSG.placeNameTooLong(TASK_PLACE_NAME_MAX)),
      lng: coordinateField,
      lat: coordinateField,
    })
    .nullish(),
  user_ids: z
    .array(idField(TASK_MSG.userNotMember), { invalid_type_error: MSG.badRequest })
    .max(TASK_USERS_MAX * 2, TASK_MSG.tooManyUsers(TASK_USERS_MAX))
    .default([]),
  department_ids: z
    .array(idField(TASK_MSG.departmentMissing), { invalid_type_error: MSG.badRequest })
    .max(TASK_DEPARTMENTS_MAX * 2, TASK_MSG.tooManyDepartments(TASK_DEPARTMENTS_MAX))
    .default([]),
  due_date: z.string({ invalid_type_error: TASK_MSG.dueDateInvalid }).max(20, TASK_MSG.dueDateInvalid).nullish(),
})

export const idFields = z.object({ id: taskId() })

export const completeFields = z.object({ id: taskId(), sign_id: idField(TASK_MSG.signRequired) })
