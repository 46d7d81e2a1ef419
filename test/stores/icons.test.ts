import type { Icon } from '../../types/mapdata'
import { MAP_IO_MSG, MAP_UI_MSG, MSG } from '../../src/domain/messages'
import { MarkerDraft } from '../../src/stores/MarkerDraft'
import { ICON_NAME_MAX } from '../../src/stores/IconStore'
import { fail, ok } from '../support/fakes'
import { signedInRoot } from '../support/mapBuilders'

/** An icon's URL as the upload call gives it. */
const VALVE = '/files/3/0123456789abcdef0123456789abcdef.png'
const pin: Icon = { id: 1, name: '阀门', url: VALVE }

describe('IconStore (the group custom point icons)', () => {
  it('loads the icons of the group once', async () => {
    const { root, calls } = await signedInRoot({ '/api/system/get/icon': () => ok([pin]) })
    await root.icons.ensure()
    await root.icons.ensure()
    expect(root.icons.list).toEqual([pin])
    expect(calls.filter((c) => c.path === '/api/system/get/icon')).toHaveLength(1)
  })

  it('needs a name before anything is uploaded', async () => {
    const { root, calls } = await signedInRoot()
    const upload = jest.fn(async () => ({ url: '/files/3/0123456789abcdef0123456789abcde3.png', size_kb: 1, name: 'x.png' }))
    expect(await root.icons.add('  ', upload)).toBeUndefined()
    expect(root.app.currentNotice?.text).toBe(MAP_IO_MSG.iconNameRequired)
    expect(await root.icons.add('名'.repeat(ICON_NAME_MAX + 1), upload)).toBeUndefined()
    expect(root.app.currentNotice?.text).toBe(MAP_UI_MSG.iconNameTooLong(ICON_NAME_MAX))
    expect(upload).not.toHaveBeenCalled()
    expect(calls).toHaveLength(0)
  })

  it('uploads the image, then saves the icon with its url', async () => {
    const { root, calls } = await signedInRoot({ '/api/system/save/icon': (b) => ok({ id: 9, name: b.name, url: b.url }) })
    const saved = await root.icons.add(' 消防栓 ', async () => ({ url: '/files/3/0123456789abcdef0123456789abcde1.png', size_kb: 2, name: 'hydrant.png' }))
    expect(saved).toEqual({ id: 9, name: '消防栓', url: '/files/3/0123456789abcdef0123456789abcde1.png' })
    expect(calls.at(-1)?.body).toMatchObject({ name: '消防栓', url: '/files/3/0123456789abcdef0123456789abcde1.png' })
    expect(root.icons.list).toEqual([saved])
    expect(root.app.currentNotice?.text).toBe(MSG.savedOk)
  })

  it('saves nothing when the upload fails or is cancelled, or the server refuses', async () => {
    const { root, calls } = await signedInRoot({ '/api/system/save/icon': () => fail(1003, '没有权限') })
    expect(await root.icons.add('阀门', async () => undefined)).toBeUndefined()
    expect(calls).toHaveLength(0)
    expect(await root.icons.add('阀门', async () => ({ url: '/files/3/0123456789abcdef0123456789abcde2.png', size_kb: 1, name: 'v.png' }))).toBeUndefined()
    expect(root.icons.list).toEqual([])
    expect(root.app.currentNotice).toMatchObject({ type: 'danger', text: '没有权限' })
    expect(root.icons.busy).toBe(false)
  })

  it('deletes an icon', async () => {
    const { root, calls } = await signedInRoot({ '/api/system/get/icon': () => ok([pin]), '/api/system/delete/icon': () => ok(null) })
    await root.icons.load()
    expect(await root.icons.remove(1)).toBe(true)
    expect(calls.at(-1)?.body).toMatchObject({ id: 1 })
    expect(root.icons.list).toEqual([])
  })

  it('lets group managers manage icons, not ordinary members', async () => {
    expect((await signedInRoot({}, { admin: true })).root.icons.canManage).toBe(true)
    expect((await signedInRoot({}, { admin: false })).root.icons.canManage).toBe(false)
  })
})

describe('MarkerDraft icon', () => {
  it('sets and clears the icon of a point, and never gives a line one', async () => {
    const { root } = await signedInRoot()
    const draft = new MarkerDraft(root)
    draft.startNew(0)
    draft.setIcon(VALVE)
    expect(draft.style.icon).toBe(VALVE)
    draft.setIcon(undefined)
    expect('icon' in draft.style).toBe(false)
    draft.setIcon('https://tracker.example.com/p.gif')
    expect('icon' in draft.style).toBe(false)
    draft.startNew(1)
    draft.setIcon(VALVE)
    expect(draft.style.icon).toBeUndefined()
  })
})
