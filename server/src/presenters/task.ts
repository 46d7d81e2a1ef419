/** Task rows -> Task (types/tasks.ts), with what services/tasks.ts loaded for the page of rows. */
import type { SignRecord } from '../../../types/signs'
import type { Task } from '../../../types/tasks'
import type { MarkerType } from '../../../types/mapdata'
import type { Actor } from '../../../src/domain/permissions'
import { markerStopPoint } from '../../../src/domain/routes'
import { isAssignee, isTaskState, taskAbilities, taskStatus, type TaskAssignment } from '../../../src/domain/tasks'
import type { MarkerRow } from '../db/markers'
import type { TaskRow } from '../db/tasks'

/** What the rows of one page share: their assignees, people, departments, markers and proofs, and who is asking. */
export interface TaskPresentContext {
  today: string
  assignments: Map<number, TaskAssignment>
  names: Map<number, string>
  departmentName: Map<number, string>
  markerById: Map<number, Pick<MarkerRow, 'id' | 'name' | 'type' | 'points'>>
  proofs: Map<number, SignRecord>
  actor: Actor
  userId: number
  /** The departments whose assignment reaches the caller. */
  reaching: number[]
}

export function presentTask(row: TaskRow, ctx: TaskPresentContext): Task {
  const person = (id: number) => ({ id, nickname: ctx.names.get(id) ?? '' })
  const state = isTaskState(row.state) ? row.state : 'open'
  const assignment = ctx.assignments.get(row.id) ?? { user_ids: [], department_ids: [] }
  const marker = row.marker_id ? ctx.markerById.get(row.marker_id) : undefined
  const at = marker ? markerStopPoint(marker.type as MarkerType, marker.points) : null
  return {
    id: row.id,
    title: row.title,
    content: row.content,
    marker: marker && at ? { id: marker.id, name: marker.name, lng: at.lng, lat: at.lat } : null,
    place: row.place_name !== null && row.place_lng !== null && row.place_lat !== null ? { name: row.place_name, lng: row.place_lng, lat: row.place_lat } : null,
    // Members who have since been deleted, and deleted departments, are left out.
    users: assignment.user_ids.filter((id) => ctx.names.has(id)).map(person),
    departments: assignment.department_ids.flatMap((id) => (ctx.departmentName.has(id) ? [{ id, name: ctx.departmentName.get(id) as string }] : [])),
    due_date: row.due_date,
    state,
    status: taskStatus(state, row.due_date, ctx.today),
    creator: person(row.creator_id),
    created_at: row.created_at,
    updated_at: row.updated_at,
    done_at: row.done_at,
    done_by: row.done_by ? person(row.done_by) : null,
    proof: row.done_sign_id ? (ctx.proofs.get(row.done_sign_id) ?? null) : null,
    can: taskAbilities({ creator_id: row.creator_id, state }, ctx.actor, ctx.userId, isAssignee(assignment, ctx.userId, ctx.reaching)),
  }
}
