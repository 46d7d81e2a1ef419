/**
 * Idempotent creates by the phone's client_id (services/client-ids.ts): an outbox replay or a retry
 * after a lost answer never duplicates a marker, note or upload, never counts twice, and never
 * brings back what was deleted meanwhile.
 */
import { ErrCode } from '../../types/api'
import { CLIENT_ID_MSG } from '../../src/domain/clientIdMessages'
import { SYNC_CONFLICT_MSG } from '../../src/domain/syncMessages'
import { MAP_MSG } from '../../src/domain/messages'
import { PERM } from '../../src/domain/permissions'
import { usedStorageKb } from '../../server/src/db/uploads'
import { storageOf } from '../../server/src/services/storage'
import type { Auth } from './helpers'
import { expectOk, grant, makeLayer, makeTeam, setMarkerLimit, type Team } from './mapdata-fixture'

let team: Team
let layer: number
beforeEach(async () => {
  team = await makeTeam()
  layer = await makeLayer(team.t, team.owner, '点图层', 1)
  await grant(team, layer, team.member, [PERM.MARKER_ADD, PERM.NOTE_LIST, PERM.NOTE_ADD])
})
afterEach(() => team.t.close())

const CLIENT_ID = '3f6c2a9e-8d41-4b7a-9e2f-1c5d7a8b9e0f'
const call = (path: string, body: object, auth: Auth = team.owner) => team.t.call(path, body, auth)
const marker = (over: object = {}) => ({ layer_id: layer, name: '井盖', type: 0, points: '116.397428,39.90923', ...over })

async function count(table: 'markers' | 'notes' | 'uploads', where: { deleted?: boolean } = {}): Promise<number> {
  let query = team.t.db.kysely.selectFrom(table as 'markers').select((eb) => eb.fn.countAll().as('n'))
  if (where.deleted === false) query = query.where('deleted_at', 'is', null)
  return Number((await query.executeTakeFirstOrThrow()).n)
}

async function changes(kind: 'marker' | 'note'): Promise<number> {
  const row = await team.t.db.kysely
    .selectFrom('sync_changes')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('kind', '=', kind)
    .executeTakeFirstOrThrow()
  return Number(row.n)
}

async function oplogEntries(entity: 'marker' | 'note', action = 'create'): Promise<number> {
  const row = await team.t.db.kysely
    .selectFrom('oplog')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('entity', '=', entity)
    .where('action', '=', action)
    .executeTakeFirstOrThrow()
  return Number(row.n)
}

async function layerCount(): Promise<number> {
  return (await team.t.db.kysely.selectFrom('layers').select('marker_count').where('id', '=', layer).executeTakeFirstOrThrow()).marker_count
}

describe('marker create with client_id', () => {
  it('should create one marker for the same client_id sent twice and answer it both times', async () => {
    const first = expectOk(await call('/api/marker/save', marker({ client_id: CLIENT_ID })))
    const again = expectOk(await call('/api/marker/save', marker({ client_id: CLIENT_ID })))
    expect(again).toEqual(first)
    expect(first.client_id).toBe(CLIENT_ID)
    expect(await count('markers')).toBe(1)
    expect(await changes('marker')).toBe(1)
    expect(await oplogEntries('marker')).toBe(1)
    expect(await layerCount()).toBe(1)
  })

  it('should produce one row when the same create arrives several times at once', async () => {
    const answers = await Promise.all([1, 2, 3, 4].map(() => call('/api/marker/save', marker({ client_id: CLIENT_ID }))))
    const ids = answers.map((a) => expectOk(a).id)
    expect(new Set(ids).size).toBe(1)
    expect(await count('markers')).toBe(1)
    expect(await changes('marker')).toBe(1)
    expect(await oplogEntries('marker')).toBe(1)
    expect(await layerCount()).toBe(1)
  })

  it("should answer a repeat even when the first create filled the group's marker limit", async () => {
    await setMarkerLimit(team, 1)
    const first = expectOk(await call('/api/marker/save', marker({ client_id: CLIENT_ID })))
    expect(expectOk(await call('/api/marker/save', marker({ client_id: CLIENT_ID }))).id).toBe(first.id)
    const another = await call('/api/marker/save', marker({ client_id: 'another-create-01' }))
    expect(another.errcode).toBe(ErrCode.LIMIT_REACHED)
    expect(await count('markers')).toBe(1)
  })

  it('should answer the marker as it is now after a later edit, without overwriting it', async () => {
    const first = expectOk(await call('/api/marker/save', marker({ client_id: CLIENT_ID })))
    expectOk(await call('/api/marker/save', marker({ id: first.id, name: '队友改名', rev: 1 })))
    const again = expectOk(await call('/api/marker/save', marker({ client_id: CLIENT_ID })))
    expect(again).toMatchObject({ id: first.id, name: '队友改名', rev: 2 })
    expect(await changes('marker')).toBe(2)
  })

  it('should treat the same client_id with another layer as the same create: no second marker', async () => {
    const other = await makeLayer(team.t, team.owner, '另一个', 1)
    const first = expectOk(await call('/api/marker/save', marker({ client_id: CLIENT_ID })))
    const again = expectOk(await call('/api/marker/save', marker({ layer_id: other, client_id: CLIENT_ID })))
    expect(again).toMatchObject({ id: first.id, layer_id: layer })
    expect(await count('markers')).toBe(1)
  })

  it('should answer a repeat of a create deleted since with a conflict and no data, never bringing it back', async () => {
    const first = expectOk(await call('/api/marker/save', marker({ client_id: CLIENT_ID })))
    expectOk(await call('/api/marker/delete', { id: first.id }))
    const again = await call('/api/marker/save', marker({ client_id: CLIENT_ID }))
    expect(again.errcode).toBe(ErrCode.CONFLICT)
    expect(again.errmsg).toBe(SYNC_CONFLICT_MSG.markerDeleted)
    expect(again.data).toBeNull()
    expect(await count('markers')).toBe(1)
    expect(await count('markers', { deleted: false })).toBe(0)
    expect(await layerCount()).toBe(0)
  })

  it("should never answer another member's or another group's marker for the same client_id", async () => {
    const owners = expectOk(await call('/api/marker/save', marker({ client_id: CLIENT_ID })))
    const members = expectOk(await call('/api/marker/save', marker({ name: '队员的', client_id: CLIENT_ID }), team.member))
    expect(members.id).not.toBe(owners.id)
    expect(members).toMatchObject({ name: '队员的', creator_id: team.member.userid })
    const outsiderLayer = await makeLayer(team.t, team.outsider, '外部', 1)
    const outsiders = expectOk(await call('/api/marker/save', marker({ layer_id: outsiderLayer, name: '外人的', client_id: CLIENT_ID }), team.outsider))
    expect(outsiders.id).not.toBe(owners.id)
    expect(expectOk(await call('/api/marker/getbyid', { ids: [owners.id] }))[0]).toMatchObject({ name: '井盖', creator_id: team.owner.userid })
    expect(await count('markers')).toBe(3)
  })

  it.each([['short'], ['has space in it'], ['x'.repeat(65)], ['中文编号abcdefgh'], [''], [12345678]])('should refuse client_id %p as a validation error and write nothing', async (bad) => {
    const res = await call('/api/marker/save', marker({ client_id: bad }))
    expect(res.errcode).toBe(ErrCode.VALIDATION)
    expect(res.errmsg).toBe(CLIENT_ID_MSG.invalid)
    expect(await count('markers')).toBe(0)
    expect(await changes('marker')).toBe(0)
  })

  it('should keep creates without client_id as they were: each save a new marker, no client_id on the wire', async () => {
    const a = expectOk(await call('/api/marker/save', marker()))
    const b = expectOk(await call('/api/marker/save', marker()))
    expect(a.id).not.toBe(b.id)
    expect(a).not.toHaveProperty('client_id')
    expect(await count('markers')).toBe(2)
    expect(await changes('marker')).toBe(2)
  })

  it('should carry client_id wherever the phone reads its marker back: getbyid, getlist pages and after the change log', async () => {
    const { seq } = expectOk(await call('/api/sync/changes', { since: 0 }))
    const mine = expectOk(await call('/api/marker/save', marker({ client_id: CLIENT_ID })))
    const plain = expectOk(await call('/api/marker/save', marker({ name: '无编号' })))
    const pulled = expectOk(await call('/api/sync/changes', { since: seq }))
    expect(pulled.changes.map((c: { id: number }) => c.id)).toEqual([mine.id, plain.id])
    const byId = expectOk(await call('/api/marker/getbyid', { ids: [mine.id, plain.id] }))
    expect(byId[0].client_id).toBe(CLIENT_ID)
    expect(byId[1]).not.toHaveProperty('client_id')
    const page = expectOk(await call('/api/marker/getlist', { layer_ids: [layer], pageindex: 1 }))
    expect(page.list).toEqual(byId)
  })
})

describe('note create with client_id', () => {
  let markerId: number
  beforeEach(async () => {
    markerId = expectOk(await call('/api/marker/save', marker())).id
  })
  const note = (over: object = {}) => ({ marker_id: markerId, content: '现场记录', client_id: CLIENT_ID, ...over })

  it('should create one note for the same client_id sent twice and answer it both times', async () => {
    const first = expectOk(await call('/api/marker/note/save', note()))
    const again = expectOk(await call('/api/marker/note/save', note()))
    expect(again).toEqual(first)
    expect(first.client_id).toBe(CLIENT_ID)
    expect(await count('notes')).toBe(1)
    expect(await changes('note')).toBe(1)
    expect(await oplogEntries('note')).toBe(1)
  })

  it('should produce one row when the same note arrives several times at once', async () => {
    const answers = await Promise.all([1, 2, 3].map(() => call('/api/marker/note/save', note())))
    expect(new Set(answers.map((a) => expectOk(a).id)).size).toBe(1)
    expect(await count('notes')).toBe(1)
    expect(await changes('note')).toBe(1)
    expect(await oplogEntries('note')).toBe(1)
  })

  it('should answer a repeat of a note deleted since with a conflict and no data', async () => {
    const first = expectOk(await call('/api/marker/note/save', note()))
    expectOk(await call('/api/marker/note/delete', { ids: [first.id] }))
    const again = await call('/api/marker/note/save', note())
    expect(again).toMatchObject({ errcode: ErrCode.CONFLICT, errmsg: SYNC_CONFLICT_MSG.noteDeleted, data: null })
    expect(await count('notes', { deleted: false })).toBe(0)
  })

  it('should give another member their own note for the same client_id, and refuse a bad one writing nothing', async () => {
    const owners = expectOk(await call('/api/marker/note/save', note()))
    const members = expectOk(await call('/api/marker/note/save', note({ content: '队员记录' }), team.member))
    expect(members.id).not.toBe(owners.id)
    expect(members).toMatchObject({ content: '队员记录', user_id: team.member.userid })
    const bad = await call('/api/marker/note/save', note({ client_id: 'bad id!' }))
    expect(bad).toMatchObject({ errcode: ErrCode.VALIDATION, errmsg: CLIENT_ID_MSG.invalid })
    expect(await count('notes')).toBe(2)
  })

  it('should keep notes without client_id as they were', async () => {
    const a = expectOk(await call('/api/marker/note/save', note({ client_id: undefined })))
    expectOk(await call('/api/marker/note/save', note({ client_id: undefined })))
    expect(a).not.toHaveProperty('client_id')
    expect(await count('notes')).toBe(2)
  })
})

describe('upload with client_id', () => {
  const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(3000, 7)])

  async function upload(auth: Auth, clientId?: string) {
    const boundary = `----teammap${Math.random().toString(16).slice(2)}`
    const fields: Record<string, string> = { type: 'note', userid: String(auth.userid), groupid: '', token: auth.token, ...(clientId === undefined ? {} : { client_id: clientId }) }
    const chunks: Buffer[] = Object.entries(fields).map(([name, value]) => Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`))
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="现场.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`), JPEG, Buffer.from(`\r\n--${boundary}--\r\n`))
    const res = await team.t.app.inject({ method: 'POST', url: '/api/system/upload', payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } })
    const body = res.json()
    return { errcode: body.header.errcode as number, errmsg: body.header.errmsg as string, data: body.data }
  }

  // The files written to storage, whatever the upload rows say.
  let stored: string[]
  beforeEach(() => {
    stored = []
    const storage = storageOf(team.t.app, {})
    const put = storage.put.bind(storage)
    storage.put = (key, data, mime) => {
      stored.push(key)
      return put(key, data, mime)
    }
  })

  it('should store one file for the same client_id sent twice, answer it both times and count its size once', async () => {
    const first = await upload(team.owner, CLIENT_ID)
    const again = await upload(team.owner, CLIENT_ID)
    expect(first.errcode).toBe(0)
    expect(again).toEqual(first)
    expect(await count('uploads')).toBe(1)
    expect(stored).toHaveLength(1)
    expect(await usedStorageKb(team.t.db.kysely, team.groupId)).toBe(3)
  })

  it('should store one file when the same upload arrives several times at once', async () => {
    const answers = await Promise.all([1, 2, 3].map(() => upload(team.owner, CLIENT_ID)))
    expect(answers.map((a) => a.errcode)).toEqual([0, 0, 0])
    expect(new Set(answers.map((a) => a.data.url)).size).toBe(1)
    expect(await count('uploads')).toBe(1)
    expect(stored).toHaveLength(1)
  })

  it("should answer a repeat even when the first file filled the group's storage", async () => {
    await team.t.db.kysely.updateTable('groups').set({ file_size_limit: 3 }).where('id', '=', team.groupId).execute()
    const first = await upload(team.owner, CLIENT_ID)
    expect(await upload(team.owner, CLIENT_ID)).toEqual(first)
    expect(await upload(team.owner, 'another-upload-1')).toMatchObject({ errcode: ErrCode.LIMIT_REACHED, errmsg: MAP_MSG.storageFull })
  })

  it("should store another member's file for the same client_id as theirs, and refuse a bad client_id storing nothing", async () => {
    const owners = await upload(team.owner, CLIENT_ID)
    const members = await upload(team.member, CLIENT_ID)
    expect(members.errcode).toBe(0)
    expect(members.data.url).not.toBe(owners.data.url)
    expect(await upload(team.owner, 'no/slashes')).toMatchObject({ errcode: ErrCode.VALIDATION, errmsg: CLIENT_ID_MSG.invalid })
    expect(await count('uploads')).toBe(2)
    expect(stored).toHaveLength(2)
  })

  it('should keep uploads without client_id (or with an empty field) as they were: each a new file', async () => {
    const a = await upload(team.owner)
    const b = await upload(team.owner, '')
    expect(a.errcode).toBe(0)
    expect(b.errcode).toBe(0)
    expect(a.data.url).not.toBe(b.data.url)
    expect(await count('uploads')).toBe(2)
  })
})
