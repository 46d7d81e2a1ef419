/** /api/system/title/style/*: marker title styles per layer with the group's default (SPEC 3, 9). */
import { ErrCode } from '../../types/api'
import { MAP_IO_MSG, MSG } from '../../src/domain/messages'
import { PERM } from '../../src/domain/permissions'
import { expectOk, grant, makeLayer, makeTeam, rowCount, type Team } from './mapdata-fixture'

let team: Team
let layerId: number
beforeEach(async () => {
  team = await makeTeam()
  layerId = await makeLayer(team.t, team.owner, '水井')
})
afterEach(() => team.t.close())

const SPEC_DEFAULT = { id: 0, layer_id: null, font_size: 14, color: '#165DFF', bg_color: '#FFFFFF', padding: 4, border_weight: 1, border_color: '#165DFF', rev: 0 }

describe('/api/system/title/style/getlist', () => {
  it('should answer the SPEC default (font size 14, colour #165DFF) before anything is saved', async () => {
    expect(expectOk(await team.t.call('/api/system/title/style/getlist', {}, team.owner))).toEqual([SPEC_DEFAULT])
  })

  it('should list the saved default first, then the layer styles', async () => {
    const { t, owner } = team
    const def = expectOk(await t.call('/api/system/title/style/save', { layer_id: null, font_size: 16 }, owner))
    const own = expectOk(await t.call('/api/system/title/style/save', { layer_id: layerId, color: '#ff0000' }, owner))
    expect(own).toMatchObject({ layer_id: layerId, font_size: 16, color: '#FF0000' })
    expect(expectOk(await t.call('/api/system/title/style/getlist', {}, owner))).toEqual([def, own])
  })
})

describe('/api/system/title/style/getbylayerid', () => {
  it('should answer each layer its own style or the inherited default with id 0', async () => {
    const { t, owner } = team
    const other = await makeLayer(t, owner, '泵站')
    const own = expectOk(await t.call('/api/system/title/style/save', { layer_id: layerId, font_size: 20 }, owner))
    expect(expectOk(await t.call('/api/system/title/style/getbylayerid', { layerids: [layerId, other] }, owner))).toEqual([own, { ...SPEC_DEFAULT, layer_id: other }])
  })
})

describe('/api/system/title/style/save', () => {
  it('should replace the style of a layer instead of adding a second one', async () => {
    const { t, owner } = team
    const first = expectOk(await t.call('/api/system/title/style/save', { layer_id: layerId, font_size: 20 }, owner))
    const second = expectOk(await t.call('/api/system/title/style/save', { layer_id: layerId, padding: 8 }, owner))
    expect(second).toEqual({ ...first, padding: 8, rev: 2 })
    expect(await rowCount(t, 'title_styles')).toBe(1)
  })

  it('should refuse colours that are not #RRGGBB and sizes out of range', async () => {
    const { t, owner } = team
    expect(await t.call('/api/system/title/style/save', { layer_id: layerId, color: 'red' }, owner)).toMatchObject({ errcode: ErrCode.VALIDATION, errmsg: MAP_IO_MSG.colorInvalid })
    expect((await t.call('/api/system/title/style/save', { layer_id: layerId, font_size: 200 }, owner)).errcode).toBe(ErrCode.VALIDATION)
    expect((await t.call('/api/system/title/style/save', { layer_id: layerId, padding: -1 }, owner)).errcode).toBe(ErrCode.VALIDATION)
    expect(await rowCount(t, 'title_styles')).toBe(0)
  })

  it('should let only managers change the default and members with layer_edit a layer style', async () => {
    const { t, member } = team
    await grant(team, layerId, member, [PERM.MARKER_ADD])
    const forbidden = { errcode: ErrCode.FORBIDDEN, errmsg: MSG.forbidden }
    expect(await t.call('/api/system/title/style/save', { layer_id: null, font_size: 12 }, member)).toMatchObject(forbidden)
    expect(await t.call('/api/system/title/style/save', { layer_id: layerId, font_size: 12 }, member)).toMatchObject(forbidden)
    await grant(team, layerId, member, [PERM.LAYER_EDIT])
    expectOk(await t.call('/api/system/title/style/save', { layer_id: layerId, font_size: 12 }, member))
  })

  it('should keep another group from reading or changing the styles', async () => {
    const { t, owner, outsider } = team
    const own = expectOk(await t.call('/api/system/title/style/save', { layer_id: layerId, font_size: 30 }, owner))
    expect(await t.call('/api/system/title/style/save', { layer_id: layerId, font_size: 9 }, outsider)).toMatchObject({ errcode: ErrCode.NOT_FOUND })
    expect(expectOk(await t.call('/api/system/title/style/getbylayerid', { layerids: [layerId] }, outsider))).toEqual([])
    expect(expectOk(await t.call('/api/system/title/style/getlist', {}, outsider))).toEqual([SPEC_DEFAULT])
    expectOk(await t.call('/api/system/title/style/save', { layer_id: null, font_size: 22 }, outsider))
    expect(expectOk(await t.call('/api/system/title/style/getlist', {}, owner))).toEqual([SPEC_DEFAULT, own])
  })
})
