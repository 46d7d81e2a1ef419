/**
 * A team built through the teams API for the teams server tests: an administrator with a group,
 * members who join by invite code, departments, and builders for layers, markers and notes.
 */
import { ErrCode } from '../../types/api'
import { SandboxPay } from '../../server/src/services/pay/provider'
import { makeTestApp, type Auth, type CallResult, type TestApp } from './helpers'

export interface Person extends Auth {
  userid: number
  joinId: number
}

export interface TeamWorld {
  t: TestApp
  owner: Person
  groupId: number
  call<T = any>(path: string, body: object, auth: Auth): Promise<CallResult<T>>
  /** A new user who signs in, names themselves and joins by the group's invite code. */
  join(phone: string, nickname: string): Promise<Person>
  /** A user who signs in and makes their own map (a member of no team). */
  stranger(phone: string, nickname?: string): Promise<Person>
  department(name: string, parent_id?: number): Promise<number>
  /** Puts a member into a department (the administrator does it). */
  place(person: Person, departmentId: number): Promise<void>
  makeManager(person: Person): Promise<void>
  layer(name: string, type?: number, parent_id?: number, auth?: Auth): Promise<number>
  marker(layer_id: number, name: string, auth?: Auth): Promise<number>
  note(marker_id: number, content: string, auth?: Auth): Promise<number>
  /** The administrator grants opts on a layer to a member or a department. */
  grant(layer_id: number, to: { user_id: number } | { department_id: number }, opts: string[]): Promise<void>
  setJoinLimit(limit: number): Promise<void>
  /** The administrator makes a role granting these catalogue ids and assigns it to these people; returns its id. */
  role(name: string, moduleIds: string[], people: Person[]): Promise<number>
  close(): Promise<void>
}

/** Fails the test with the server's message when a call that should work does not. */
export function ok<T>(res: CallResult<T>): T {
  if (res.status !== 200 || res.errcode !== ErrCode.OK) throw new Error(`expected success, got ${res.status} ${res.errcode} ${res.errmsg}`)
  return res.data
}

/** paySandbox: payments complete through /api/pay/sandbox/complete, as with PAY_SANDBOX=1 (off otherwise, as on a server without it). */
export async function makeWorld(options: { t?: TestApp; paySandbox?: boolean } = {}): Promise<TeamWorld> {
  const t = options.t ?? (await makeTestApp(options.paySandbox ? { pay: new SandboxPay() } : {}))
  const call = <T = any>(path: string, body: object, auth: Auth) => t.call<T>(path, body, auth)

  async function signIn(phone: string, nickname?: string): Promise<Auth & { userid: number }> {
    const { auth } = await t.login(phone)
    if (nickname) ok(await call('/api/user/init', { nickname }, auth))
    return { userid: auth.userid as number, token: auth.token }
  }

  const ownerAuth = await signIn('13800000000', '队长')
  const created = ok(await call('/api/group/create', { name: '勘察队' }, ownerAuth))
  const groupId = created.user.select_groupid as number
  const joins = async () => ok(await call('/api/group/get/joins', {}, ownerAuth)).list as any[]
  const joinIdOf = async (userId: number) => (await joins()).find((m) => m.user.id === userId).join_id as number
  const owner: Person = { ...ownerAuth, joinId: await joinIdOf(ownerAuth.userid) }
  const code = ok(await call('/api/group/invite/code', {}, ownerAuth)).code as string

  let markerSeq = 0
  return {
    t,
    owner,
    groupId,
    call,
    async join(phone, nickname) {
      const auth = await signIn(phone, nickname)
      ok(await call('/api/group/join', { code }, auth))
      return { ...auth, joinId: await joinIdOf(auth.userid) }
    },
    async stranger(phone, nickname) {
      const auth = await signIn(phone, nickname)
      ok(await call('/api/group/create', {}, auth))
      return { ...auth, joinId: 0 }
    },
    async department(name, parent_id = 0) {
      return ok(await call('/api/department/save', { name, parent_id }, ownerAuth)).id
    },
    async place(person, departmentId) {
      ok(await call('/api/group/setting/join', { join_id: person.joinId, department_id: departmentId }, ownerAuth))
    },
    async makeManager(person) {
      ok(await call('/api/group/join/setting/manager', { join_id: person.joinId, is_manager: true }, ownerAuth))
    },
    async layer(name, type = 1, parent_id = 0, auth = ownerAuth) {
      return ok(await call('/api/layer/save', { name, type, parent_id }, auth)).id
    },
    async marker(layer_id, name, auth = ownerAuth) {
      markerSeq++
      return ok(await call('/api/marker/save', { layer_id, name, type: 0, points: `116.${397428 + markerSeq},39.90923` }, auth)).id
    },
    async note(marker_id, content, auth = ownerAuth) {
      return ok(await call('/api/marker/note/save', { marker_id, content }, auth)).id
    },
    async grant(layer_id, to, opts) {
      ok(await call('/api/layer/save/auth', { layer_id, ...to, opts }, ownerAuth))
    },
    async setJoinLimit(limit) {
      await t.db.kysely.updateTable('groups').set({ join_limit: limit }).where('id', '=', groupId).execute()
    },
    async role(name, moduleIds, people) {
      const id = ok(await call('/api/role/save', { name }, ownerAuth)).id as number
      ok(await call('/api/role/save/module', { role_id: id, module_ids: moduleIds }, ownerAuth))
      ok(await call('/api/role/save/join', { role_id: id, user_ids: people.map((p) => p.userid) }, ownerAuth))
      return id
    },
    close: () => t.close(),
  }
}
