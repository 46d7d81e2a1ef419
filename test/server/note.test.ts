/** /api/marker/note/*: notes with text and photos on a marker, their permissions and their log. */
import { ErrCode } from '../../types/api'
import { NOTE_MAX } from '../../src/domain/markers'
import { MAP_MSG, MAP_UI_MSG, MSG } from '../../src/domain/messages'
import { PERM } from '../../src/domain/permissions'
import { FILE_URL_MSG } from '../../src/domain/systemMessages'
import { expectOk, grant, makeLayer, makeMarker, makeTeam, rowCount, type Team } from './mapdata-fixture'

let team: Team
let layerId: number
let markerId: number
beforeEach(async () => {
  team = await makeTeam()
  layerId = await makeLayer(team.t, team.owner, '水井')
  markerId = await makeMarker(team.t, team.owner, layerId, { name: '1号井' })
})
afterEach(() => team.t.close())

const PHOTO = '/files/1/0123456789abcdef0123456789abcdef.jpg'

describe('/api/marker/note/save', () => {
  it('should add a note with text and photos and list it with its author', async () => {
    const { t, owner } = team
    const saved = expectOk(await t.call('/api/marker/note/save', { marker_id: markerId, content: ' 水位偏低 ', photos: [PHOTO] }, owner))
    expect(saved).toEqual({
      id: expect.any(Number),
      marker_id: markerId,
      content: '水位偏低',
      photos: [PHOTO],
      user_id: owner.userid,
      user_name: '队长',
      rev: 1,
      created_at: t.clock.now().toISOString(),
      updated_at: t.clock.now().toISOString(),
    })
    expect(expectOk(await t.call('/api/marker/note/getlist', { markerid: markerId }, owner))).toEqual([saved])
  })

  it('should accept a note with photos only and refuse one with neither text nor photos', async () => {
    const { t, owner } = team
    expect((await t.call('/api/marker/note/save', { marker_id: markerId, content: '', photos: [PHOTO] }, owner)).errcode).toBe(0)
    expect(await t.call('/api/marker/note/save', { marker_id: markerId, content: '   ', photos: [] }, owner)).toMatchObject({ errcode: ErrCode.VALIDATION, errmsg: MAP_MSG.noteEmpty })
    expect(await t.call('/api/marker/note/save', { marker_id: markerId }, owner)).toMatchObject({ errcode: ErrCode.VALIDATION, errmsg: MAP_MSG.noteEmpty })
    expect(await rowCount(t, 'notes')).toBe(1)
  })

  it('should refuse text over the limit, photo links that are not uploads to the app, and too many photos', async () => {
    const { t, owner } = team
    expect(await t.call('/api/marker/note/save', { marker_id: markerId, content: '字'.repeat(NOTE_MAX + 1) }, owner)).toMatchObject({ errmsg: MAP_UI_MSG.noteTooLong(NOTE_MAX) })
    for (const bad of ['javascript:alert(1)', 'https://tracker.example.com/p.gif']) {
      expect(await t.call('/api/marker/note/save', { marker_id: markerId, content: 'x', photos: [bad] }, owner)).toMatchObject({ errcode: ErrCode.VALIDATION, errmsg: FILE_URL_MSG.photo })
    }
    expect((await t.call('/api/marker/note/save', { marker_id: markerId, content: 'x', photos: Array(10).fill(PHOTO) }, owner)).errcode).toBe(ErrCode.VALIDATION)
    expect(await rowCount(t, 'notes')).toBe(0)
  })

  it('should update a note and log the create and the update with before and after', async () => {
    const { t, owner } = team
    const note = expectOk(await t.call('/api/marker/note/save', { marker_id: markerId, content: '初稿' }, owner))
    t.clock.advance(1000)
    const edited = expectOk(await t.call('/api/marker/note/save', { id: note.id, marker_id: markerId, content: '定稿', photos: [PHOTO] }, owner))
    expect(edited).toMatchObject({ id: note.id, content: '定稿', photos: [PHOTO], created_at: note.created_at, updated_at: t.clock.now().toISOString() })
    const log = expectOk(await t.call('/api/oplog/getlist', { entity: 'note' }, owner))
    expect(log.list.map((l: any) => [l.action, l.name, l.before?.content ?? null, l.after?.content ?? null])).toEqual([
      ['update', '定稿', '初稿', '定稿'],
      ['create', '初稿', null, '初稿'],
    ])
  })

  it('should refuse a note on a deleted or unknown marker', async () => {
    const { t, owner } = team
    expectOk(await t.call('/api/marker/delete', { id: markerId }, owner))
    expect(await t.call('/api/marker/note/save', { marker_id: markerId, content: 'x' }, owner)).toMatchObject({ errcode: ErrCode.NOT_FOUND })
    expect(await t.call('/api/marker/note/save', { marker_id: 99999, content: 'x' }, owner)).toMatchObject({ errcode: ErrCode.NOT_FOUND })
    expect(await t.call('/api/marker/note/getlist', { markerid: markerId }, owner)).toMatchObject({ errcode: ErrCode.NOT_FOUND })
  })

  it('should not move a note to another marker through an update', async () => {
    const { t, owner } = team
    const other = await makeMarker(t, owner, layerId, { name: '2号井' })
    const note = expectOk(await t.call('/api/marker/note/save', { marker_id: markerId, content: 'a' }, owner))
    expect(await t.call('/api/marker/note/save', { id: note.id, marker_id: other, content: 'b' }, owner)).toMatchObject({ errcode: ErrCode.NOT_FOUND })
  })
})

describe('/api/marker/note/delete', () => {
  it('should delete several notes in one call and log each delete as restorable', async () => {
    const { t, owner } = team
    const a = expectOk(await t.call('/api/marker/note/save', { marker_id: markerId, content: 'a' }, owner))
    const b = expectOk(await t.call('/api/marker/note/save', { marker_id: markerId, content: 'b' }, owner))
    expectOk(await t.call('/api/marker/note/delete', { ids: [a.id, b.id] }, owner))
    expect(expectOk(await t.call('/api/marker/note/getlist', { markerid: markerId }, owner))).toEqual([])
    const log = expectOk(await t.call('/api/oplog/getlist', { entity: 'note', action: 'delete' }, owner))
    expect(log.list.map((l: any) => [l.entity_id, l.restorable]).sort()).toEqual(
      [
        [a.id, true],
        [b.id, true],
      ].sort(),
    )
  })

  it('should delete nothing when one of the ids is unknown', async () => {
    const { t, owner } = team
    const a = expectOk(await t.call('/api/marker/note/save', { marker_id: markerId, content: 'a' }, owner))
    expect(await t.call('/api/marker/note/delete', { ids: [a.id, 99999] }, owner)).toMatchObject({ errcode: ErrCode.NOT_FOUND })
    expect(await rowCount(t, 'notes', { deleted: false })).toBe(1)
  })

  it('should require a list of ids', async () => {
    expect((await team.t.call('/api/marker/note/delete', { ids: [] }, team.owner)).errcode).toBe(ErrCode.VALIDATION)
    expect((await team.t.call('/api/marker/note/delete', { ids: 'x' }, team.owner)).errcode).toBe(ErrCode.VALIDATION)
  })
})

describe('note permissions', () => {
  it('should refuse every note call to a plain member without the note permissions on the layer', async () => {
    const { t, owner, member } = team
    const note = expectOk(await t.call('/api/marker/note/save', { marker_id: markerId, content: 'a' }, owner))
    await grant(team, layerId, member, [PERM.MARKER_ADD])
    const forbidden = { errcode: ErrCode.FORBIDDEN, errmsg: MSG.forbidden }
    expect(await t.call('/api/marker/note/getlist', { markerid: markerId }, member)).toMatchObject(forbidden)
    expect(await t.call('/api/marker/note/save', { marker_id: markerId, content: 'b' }, member)).toMatchObject(forbidden)
    expect(await t.call('/api/marker/note/save', { id: note.id, marker_id: markerId, content: 'b' }, member)).toMatchObject(forbidden)
    expect(await t.call('/api/marker/note/delete', { ids: [note.id] }, member)).toMatchObject(forbidden)
    expect(await rowCount(t, 'notes', { deleted: false })).toBe(1)
  })

  it('should let a member list, add, edit and delete with exactly the matching permission ids', async () => {
    const { t, member } = team
    await grant(team, layerId, member, [PERM.NOTE_LIST, PERM.NOTE_ADD])
    const note = expectOk(await t.call('/api/marker/note/save', { marker_id: markerId, content: 'a' }, member))
    expect(expectOk(await t.call('/api/marker/note/getlist', { markerid: markerId }, member))).toHaveLength(1)
    expect((await t.call('/api/marker/note/save', { id: note.id, marker_id: markerId, content: 'b' }, member)).errcode).toBe(ErrCode.FORBIDDEN)
    await grant(team, layerId, member, [PERM.NOTE_LIST, PERM.NOTE_EDIT, PERM.NOTE_DELETE])
    expect((await t.call('/api/marker/note/save', { id: note.id, marker_id: markerId, content: 'b' }, member)).errcode).toBe(0)
    expect((await t.call('/api/marker/note/delete', { ids: [note.id] }, member)).errcode).toBe(0)
  })

  it('should keep another group from reading, adding, changing or deleting notes', async () => {
    const { t, owner, outsider } = team
    const note = expectOk(await t.call('/api/marker/note/save', { marker_id: markerId, content: 'secret' }, owner))
    const notFound = { errcode: ErrCode.NOT_FOUND }
    expect(await t.call('/api/marker/note/getlist', { markerid: markerId }, outsider)).toMatchObject(notFound)
    expect(await t.call('/api/marker/note/save', { marker_id: markerId, content: 'x' }, outsider)).toMatchObject(notFound)
    expect(await t.call('/api/marker/note/save', { id: note.id, marker_id: markerId, content: 'x' }, outsider)).toMatchObject(notFound)
    expect(await t.call('/api/marker/note/delete', { ids: [note.id] }, outsider)).toMatchObject(notFound)
    expect(expectOk(await t.call('/api/marker/note/getlist', { markerid: markerId }, owner))).toMatchObject([{ content: 'secret' }])
  })

  it('should require a session', async () => {
    expect((await team.t.call('/api/marker/note/getlist', { markerid: markerId })).status).toBe(401)
    expect((await team.t.call('/api/marker/note/save', { marker_id: markerId, content: 'x' })).status).toBe(401)
    expect((await team.t.call('/api/marker/note/delete', { ids: [1] })).status).toBe(401)
  })
})
