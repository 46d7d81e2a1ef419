/** /api/system/get/icon, save/icon, delete/icon: the group's custom icons. */
import { ErrCode } from '../../types/api'
import { MAP_IO_MSG, MSG } from '../../src/domain/messages'
import { FILE_URL_MSG } from '../../src/domain/systemMessages'
import { expectOk, makeTeam, rowCount, type Team } from './mapdata-fixture'
import { uploadPng } from './upload-fixture'

let team: Team
beforeEach(async () => {
  team = await makeTeam()
})
afterEach(() => team.t.close())

const URL = '/files/1/0123456789abcdef0123456789abcdef.png'

describe('icons', () => {
  it('should add, rename and delete icons and list them for every member', async () => {
    const { t, owner, member } = team
    const icon = expectOk(await t.call('/api/system/save/icon', { name: ' 水井 ', url: URL }, owner))
    expect(icon).toEqual({ id: expect.any(Number), name: '水井', url: URL })
    const uploaded = await uploadPng(t, owner)
    const renamed = expectOk(await t.call('/api/system/save/icon', { id: icon.id, name: '泵站', url: uploaded }, owner))
    expect(renamed).toEqual({ id: icon.id, name: '泵站', url: uploaded })
    expect(expectOk(await t.call('/api/system/get/icon', {}, member))).toEqual([renamed])
    expectOk(await t.call('/api/system/delete/icon', { id: icon.id }, owner))
    expect(expectOk(await t.call('/api/system/get/icon', {}, owner))).toEqual([])
  })

  it('should want a name and an image uploaded to the app', async () => {
    const { t, owner } = team
    expect(await t.call('/api/system/save/icon', { name: '', url: URL }, owner)).toMatchObject({ errcode: ErrCode.VALIDATION, errmsg: MAP_IO_MSG.iconNameRequired })
    expect(await t.call('/api/system/save/icon', { name: 'a' }, owner)).toMatchObject({ errcode: ErrCode.VALIDATION, errmsg: MAP_IO_MSG.iconUrlRequired })
    for (const url of ['javascript:alert(1)', 'https://tracker.example.com/p.png', 'http://example.com/p.png', '/files/x.png', 'data:image/png;base64,AAAA']) {
      expect(await t.call('/api/system/save/icon', { name: 'a', url }, owner)).toMatchObject({ errcode: ErrCode.VALIDATION, errmsg: FILE_URL_MSG.icon })
    }
    expect(await rowCount(t, 'icons')).toBe(0)
  })

  it('should take the URL the upload call answers', async () => {
    const { t, owner } = team
    const url = await uploadPng(t, owner)
    expect(expectOk(await t.call('/api/system/save/icon', { name: '阀门', url }, owner))).toMatchObject({ url })
  })

  it('should refuse a plain member who adds, changes or deletes icons', async () => {
    const { t, owner, member } = team
    const icon = expectOk(await t.call('/api/system/save/icon', { name: 'a', url: URL }, owner))
    const forbidden = { errcode: ErrCode.FORBIDDEN, errmsg: MSG.forbidden }
    expect(await t.call('/api/system/save/icon', { name: 'b', url: URL }, member)).toMatchObject(forbidden)
    expect(await t.call('/api/system/save/icon', { id: icon.id, name: 'b', url: URL }, member)).toMatchObject(forbidden)
    expect(await t.call('/api/system/delete/icon', { id: icon.id }, member)).toMatchObject(forbidden)
    expect(await rowCount(t, 'icons')).toBe(1)
  })

  it('should keep another group from seeing, changing or deleting the icons', async () => {
    const { t, owner, outsider } = team
    const icon = expectOk(await t.call('/api/system/save/icon', { name: 'a', url: URL }, owner))
    expect(expectOk(await t.call('/api/system/get/icon', {}, outsider))).toEqual([])
    expect(await t.call('/api/system/save/icon', { id: icon.id, name: 'b', url: URL }, outsider)).toMatchObject({ errcode: ErrCode.NOT_FOUND })
    expect(await t.call('/api/system/delete/icon', { id: icon.id }, outsider)).toMatchObject({ errcode: ErrCode.NOT_FOUND })
    expect(expectOk(await t.call('/api/system/get/icon', {}, owner))).toEqual([icon])
  })

  it('should require a session', async () => {
    expect((await team.t.call('/api/system/get/icon', {})).status).toBe(401)
  })
})
