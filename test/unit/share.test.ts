import { SHARE_BTN } from '../../src/domain/constants'
import { qrDataUrl, qrModules } from '../../src/domain/qr'
import {
  checkShareForm,
  defaultShareMask,
  defaultShareName,
  hasShareFlag,
  isShareExpired,
  newShareForm,
  setShareExpSwitch,
  setSharePwdSwitch,
  setShareType,
  shanghaiDate,
  shareDialogTitle,
  shareExpiry,
  shareLink,
  withShareFlag,
  SHARE_MASK_ALL,
} from '../../src/domain/share'
import { SHARE_MSG } from '../../src/domain/shareMessages'

const TODAY = '2026-11-23'

describe('share rules (SPEC 4, 5, 9)', () => {
  it('the default mask is 60 = toolbox + refresh + toggle title + locate; a route share 172 with route markers', () => {
    expect(defaultShareMask(1)).toBe(SHARE_BTN.TOOLBOX + SHARE_BTN.REFRESH + SHARE_BTN.TOGGLE_TITLE + SHARE_BTN.LOCATE)
    expect(defaultShareMask(2)).toBe(60)
    expect(defaultShareMask(3)).toBe(172)
    expect(hasShareFlag(172, SHARE_BTN.ROUTE_MARKERS)).toBe(true)
    expect(SHARE_MASK_ALL).toBe(255)
  })

  it('picking a route sets 172 and turns route-marker sharing on; leaving it goes back to 60', () => {
    const form = setShareType(newShareForm(1), 3)
    expect(form.show_btn).toBe(172)
    expect(setShareType(form, 2).show_btn).toBe(60)
  })

  it('flags switch on and off without touching the others', () => {
    expect(withShareFlag(60, SHARE_BTN.MAP_STYLE, true)).toBe(124)
    expect(withShareFlag(124, SHARE_BTN.MAP_STYLE, false)).toBe(60)
    expect(withShareFlag(60, SHARE_BTN.LOCATE, false)).toBe(28)
  })

  it('default names are "{data name}_{kind}_分享", and "图层_分享" for a layer without a data name', () => {
    expect(defaultShareName(1, '客户')).toBe('客户_图层_分享')
    expect(defaultShareName(2, '张三门店')).toBe('张三门店_标注_分享')
    expect(defaultShareName(3, '早班路线')).toBe('早班路线_路线_分享')
    expect(defaultShareName(1)).toBe('图层_分享')
    expect(defaultShareName(1, '  ')).toBe('图层_分享')
    expect(shareDialogTitle(1)).toBe('图层数据分享')
  })

  it('validates with SPEC 5 messages, first problem first', () => {
    const ok = { name: '客户_图层_分享', data_ids: [1], need_pwd: false, pwd: '', use_exp: false, exp: '' }
    expect(checkShareForm(ok, TODAY)).toBeNull()
    expect(checkShareForm({ ...ok, name: ' ' }, TODAY)).toBe('请填写分享名称')
    expect(checkShareForm({ ...ok, name: '名'.repeat(31) }, TODAY)).toBe('分享名称不能超过30个字')
    expect(checkShareForm({ ...ok, name: '名'.repeat(30) }, TODAY)).toBeNull()
    expect(checkShareForm({ ...ok, data_ids: [] }, TODAY)).toBe('请选择要分享的数据')
    expect(checkShareForm({ ...ok, need_pwd: true }, TODAY)).toBe('请输入分享密码')
    expect(checkShareForm({ ...ok, need_pwd: true, pwd: '1234567' }, TODAY)).toBe('分享密码不能超过6位')
    expect(checkShareForm({ ...ok, need_pwd: true, pwd: '123456' }, TODAY)).toBeNull()
    expect(checkShareForm({ ...ok, use_exp: true }, TODAY)).toBe('请设置过期时间')
    expect(checkShareForm({ ...ok, use_exp: true, exp: '2026-11-22' }, TODAY)).toBe('过期时间不能早于今天')
    expect(checkShareForm({ ...ok, use_exp: true, exp: TODAY }, TODAY)).toBeNull()
  })

  it('switching the password or the expiry off clears it', () => {
    const f = { ...newShareForm(1, [1], '客户'), need_pwd: true, pwd: '1234', use_exp: true, exp: TODAY }
    expect(setSharePwdSwitch(f, false)).toMatchObject({ need_pwd: false, pwd: '' })
    expect(setShareExpSwitch(f, false)).toMatchObject({ use_exp: false, exp: '' })
    expect(setSharePwdSwitch(f, true).pwd).toBe('1234')
  })

  it('a share works until the end of its expiry day in China', () => {
    // 2026-11-23 23:59 in Shanghai is 15:59 UTC.
    expect(isShareExpired('2026-11-23', new Date('2026-11-23T15:59:00Z'))).toBe(false)
    expect(isShareExpired('2026-11-23', new Date('2026-11-23T16:00:00Z'))).toBe(true)
    expect(isShareExpired(null, new Date('2030-01-01T00:00:00Z'))).toBe(false)
    expect(shanghaiDate(new Date('2026-11-22T16:30:00Z'))).toBe('2026-11-23')
  })

  it('tells how soon a share ends: a link dying tonight is a warning, not a green light', () => {
    // 2026-11-23 20:00 in Shanghai.
    const evening = new Date('2026-11-23T12:00:00Z')
    expect(shareExpiry(null, false, evening)).toEqual({ text: '永久有效', tone: 'forever' })
    expect(shareExpiry('2026-11-23', false, evening)).toEqual({ text: SHARE_MSG.expToday, tone: 'today' })
    expect(shareExpiry('2026-11-24', false, evening)).toEqual({ text: '有效期至 2026-11-24', tone: 'later' })
    expect(shareExpiry('2026-11-22', false, evening)).toEqual({ text: '已过期（2026-11-22）', tone: 'over' })
    // The server's verdict wins over a phone whose clock is behind.
    expect(shareExpiry('2026-11-24', true, evening)).toEqual({ text: '已过期（2026-11-24）', tone: 'over' })
  })

  it('the link opens /share/view with the id', () => {
    expect(shareLink('https://map.test/', 'Ab_9-xYz12')).toBe('https://map.test/share/view?id=Ab_9-xYz12')
  })
})

describe('invite QR code', () => {
  it('encodes the invite link as a GIF data URL with a square module matrix', () => {
    const link = 'https://map.test/group?code=ABC123XY'
    expect(qrDataUrl(link)).toMatch(/^data:image\/gif;base64,[A-Za-z0-9+/=]+$/)
    const m = qrModules(link)
    expect(m.length).toBeGreaterThanOrEqual(21)
    expect(m.every((row) => row.length === m.length)).toBe(true)
    // The three finder patterns: dark corners.
    expect(m[0][0] && m[0][m.length - 1] && m[m.length - 1][0]).toBe(true)
    expect(qrModules('https://map.test/group?code=OTHER123')).not.toEqual(m)
  })
})
