import { makeRoot } from '../support/fakes'

describe('going back after a form is saved', () => {
  it('returns to the page that opened the form', () => {
    const { root, navigations, backs } = makeRoot({}, { openedFrom: true })
    root.navigateBack('/route')
    expect(backs()).toBe(1)
    expect(navigations).toEqual([])
  })

  it('goes to the fallback page, in place of the form, when the form was opened directly', () => {
    const { root, navigations, backs } = makeRoot({}, { openedFrom: false })
    root.navigateBack('/task')
    expect(backs()).toBe(0)
    expect(navigations).toEqual([{ path: '/task', mode: 'redirect' }])
  })
})
