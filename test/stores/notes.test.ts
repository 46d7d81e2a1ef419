import { ApiError } from '../../src/api/errors'
import { MAP_MSG, MSG } from '../../src/domain/messages'
import { parseUploadResponse } from '../../src/platform/upload/response'
import { buildLogin, makeRoot, ok } from '../support/fakes'
import { buildNote, signedInRoot } from '../support/mapBuilders'

describe('NoteStore (notes with photos)', () => {
  it('lists the notes of a marker, newest first', async () => {
    const older = buildNote({ id: 1, marker_id: 5, created_at: '2026-11-01T00:00:00Z' })
    const newer = buildNote({ id: 2, marker_id: 5, created_at: '2026-11-02T00:00:00Z' })
    const { root, calls } = await signedInRoot({ '/api/marker/note/getlist': () => ok([older, newer]) })
    await root.notes.load(5)
    expect(calls.at(-1)?.body).toMatchObject({ markerid: 5 })
    expect(root.notes.notesOf(5).map((n) => n.id)).toEqual([2, 1])
  })

  it('needs text or a photo, then adds the note with its photo urls', async () => {
    const { root, calls } = await signedInRoot({ '/api/marker/note/save': (b) => ok(buildNote({ ...b, id: b.id ?? 30 })) })
    expect(await root.notes.save({ marker_id: 5, content: '  ' })).toBeUndefined()
    expect(root.app.currentNotice?.text).toBe(MAP_MSG.noteEmpty)
    expect(calls).toHaveLength(0)
    const note = await root.notes.save({ marker_id: 5, content: '', photos: ['/uploads/a.jpg'] })
    expect(note?.id).toBe(30)
    expect(calls.at(-1)?.body).toMatchObject({ marker_id: 5, content: '', photos: ['/uploads/a.jpg'] })
    await root.notes.save({ id: 30, marker_id: 5, content: '改过了' })
    expect(root.notes.notesOf(5)).toHaveLength(1)
    expect(root.notes.notesOf(5)[0].content).toBe('改过了')
  })

  it('deletes a note', async () => {
    const { root, calls } = await signedInRoot({ '/api/marker/note/getlist': () => ok([buildNote({ id: 3, marker_id: 5 })]), '/api/marker/note/delete': () => ok(null) })
    await root.notes.load(5)
    expect(await root.notes.remove({ id: 3, marker_id: 5 })).toBe(true)
    expect(calls.at(-1)?.body).toMatchObject({ ids: [3] })
    expect(root.notes.notesOf(5)).toEqual([])
  })

  it('deletes a note with the rev it showed, and edits it with the rev its edit started from (types/sync.ts)', async () => {
    const { root, calls } = await signedInRoot({
      '/api/marker/note/getlist': () => ok([buildNote({ id: 3, marker_id: 5, rev: 4 })]),
      '/api/marker/note/delete': () => ok(null),
      '/api/marker/note/save': (body: any) => ok(buildNote({ ...body, rev: 5 })),
    })
    await root.notes.load(5)
    const shown = root.notes.notesOf(5)[0]
    await root.notes.save({ id: 3, marker_id: 5, content: '改过了', rev: shown.rev }, shown)
    expect(calls.at(-1)?.body).toMatchObject({ id: 3, rev: 4 })
    expect(await root.notes.remove(root.notes.notesOf(5)[0])).toBe(true)
    expect(calls.at(-1)?.body).toMatchObject({ ids: [3], revs: [5] })
  })

  it('uploads photos to /api/system/upload with type, userid, groupid and token', async () => {
    const { root } = await signedInRoot()
    const send = jest.fn(async () => ({ url: '/uploads/x.jpg', size_kb: 12, name: 'x.jpg' }))
    expect(await root.notes.uploadPhoto('blob:1', send)).toEqual({ url: '/uploads/x.jpg', size_kb: 12, name: 'x.jpg' })
    expect(send).toHaveBeenCalledWith('blob:1', { url: 'http://api.test/api/system/upload', formData: { type: 'note', userid: '7', groupid: '3', token: 'tok-7' } })
  })

  it("picks and sends photos through the platform's uploader", async () => {
    const send = jest.fn(async () => ({ url: '/uploads/y.jpg', size_kb: 3, name: 'y.jpg' }))
    const { root } = makeRoot({ '/api/user/login': () => ok(buildLogin()) }, { upload: { send, chooseImages: async (n) => Array.from({ length: n }, (_, i) => `blob:${i}`) } })
    await root.session.login('13800138000', '123456')
    expect(await root.notes.chooseImages(2)).toEqual(['blob:0', 'blob:1'])
    expect(await root.notes.uploadPhoto('blob:0', root.notes.sendFile, 'icon')).toEqual({ url: '/uploads/y.jpg', size_kb: 3, name: 'y.jpg' })
    expect(send).toHaveBeenCalledWith('blob:0', { url: 'http://api.test/api/system/upload', formData: { type: 'icon', userid: '7', groupid: '3', token: 'tok-7' } }, undefined)
  })

  it('shows the SPEC 8 message when an upload fails and logs out on 401', async () => {
    const { root, navigations } = await signedInRoot()
    const failing = (status: number, body: unknown) => async () => parseUploadResponse(status, body)
    expect(await root.notes.uploadPhoto('p', failing(200, { header: { errcode: 1004, errmsg: MAP_MSG.storageFull }, data: null }))).toBeUndefined()
    expect(root.app.currentNotice).toMatchObject({ type: 'danger', text: MAP_MSG.storageFull })
    expect(await root.notes.uploadPhoto('p', failing(500, ''))).toBeUndefined()
    expect(root.app.currentNotice?.text).toBe(MSG.systemError)
    expect(await root.notes.uploadPhoto('p', async () => Promise.reject(new ApiError('network', MSG.networkError)))).toBeUndefined()
    expect(root.app.currentNotice?.text).toBe(MSG.networkError)
    expect(await root.notes.uploadPhoto('p', failing(401, ''))).toBeUndefined()
    expect(root.app.currentNotice).toMatchObject({ type: 'warning', text: MSG.loggedOut })
    expect(root.session.user).toBeNull()
    expect(navigations.at(-1)).toEqual({ path: '/login', mode: 'relaunch' })
  })

  it('reads the upload envelope, also when it arrives as text (weapp uploadFile)', () => {
    const env = { header: { errcode: 0, errmsg: '' }, data: { url: '/u/a.jpg', size_kb: 3, name: 'a.jpg' } }
    expect(parseUploadResponse(200, JSON.stringify(env))).toEqual({ url: '/u/a.jpg', size_kb: 3, name: 'a.jpg' })
    expect(() => parseUploadResponse(200, 'not json')).toThrow(MSG.systemError)
  })
})
