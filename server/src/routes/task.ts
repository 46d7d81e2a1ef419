/**
 * /api/task/* (TaskApi in types/tasks.ts): the group's tasks (list per scope with counts
 * per status, one, save, delete, start, complete with a check-in). The rules are in
 * services/tasks.ts and src/domain/tasks.ts.
 */
import type { FastifyInstance } from 'fastify'
import { signEnvOf, signProofs } from '../services/signs'
import { completeTask, deleteTaskOf, getTask, listTasks, saveTask, startTask, type TaskEnv } from '../services/tasks'
import { callDefiners, type AppDeps } from './define'
import { completeFields, idFields, listFields, saveFields } from '../schemas/task'
import { storageOf } from '../services/storage'

export function taskRoutes(app: FastifyInstance, deps: AppDeps): void {
  const { db, clock } = deps
  const { sessionCall } = callDefiners(app, deps)
  // A done task's proof is presented (and verified) by the check-in slice.
  const env: TaskEnv = { db, proofs: signProofs(signEnvOf(deps, storageOf(app, deps))) }

  sessionCall('/api/task/getlist', listFields, async ({ scope, status, kw, pageindex, pagesize }, caller) => listTasks(env, caller, { scope, status, kw }, { pageindex, pagesize }, clock.now()))

  sessionCall('/api/task/getbyid', idFields, async ({ id }, caller) => getTask(env, caller, id, clock.now()))

  sessionCall('/api/task/save', saveFields, async (input, caller) =>
    saveTask(env, caller, { ...input, marker_id: input.marker_id ?? null, place: input.place ?? null, due_date: input.due_date ?? null }, clock.now()),
  )

  sessionCall('/api/task/delete', idFields, async ({ id }, caller) => {
    await deleteTaskOf(env, caller, id)
    return null
  })

  sessionCall('/api/task/start', idFields, async ({ id }, caller) => startTask(env, caller, id, clock.now()))

  sessionCall('/api/task/complete', completeFields, async ({ id, sign_id }, caller) => completeTask(env, caller, id, sign_id, clock.now()))
}
