/** 导航: the directions store checks the place and hands it to the platform's map, saying so when it cannot. */
import { DIRECTIONS_MSG } from '../../src/domain/directionsMessages'
import { makeRoot } from '../support/fakes'

const PLACE = { lng: 116.397428, lat: 39.90923, name: '天安门', address: '北京市东城区长安街' }

describe('directions store', () => {
  it('hands the GCJ-02 place with its name and address to the platform, unchanged, and calls no server', async () => {
    const { root, navigatedTo, calls } = makeRoot()
    await expect(root.directions.open(PLACE)).resolves.toBe('opened')
    expect(navigatedTo).toEqual([PLACE])
    expect(calls).toEqual([])
    expect(root.app.notices).toEqual([])
  })

  it('opens nothing for a place without usable coordinates, and says why', async () => {
    const { root, navigatedTo } = makeRoot()
    await expect(root.directions.open({ ...PLACE, lng: 0, lat: 0 })).resolves.toBeNull()
    await expect(root.directions.open(null)).resolves.toBeNull()
    expect(navigatedTo).toEqual([])
    expect(root.app.notices.map((n) => [n.text, n.type])).toEqual([
      [DIRECTIONS_MSG.noPlace, 'warning'],
      [DIRECTIONS_MSG.noPlace, 'warning'],
    ])
  })

  it('says so when the phone cannot open a map, and nothing when the user backs out of it', async () => {
    const failing = makeRoot({}, { directions: async () => 'failed' })
    await failing.root.directions.open(PLACE)
    expect(failing.root.app.notices.map((n) => [n.text, n.type])).toEqual([[DIRECTIONS_MSG.openFailed, 'danger']])
    const throwing = makeRoot({}, { directions: () => Promise.reject(new Error('boom')) })
    await expect(throwing.root.directions.open(PLACE)).resolves.toBe('failed')
    expect(throwing.root.app.notices.at(-1)?.text).toBe(DIRECTIONS_MSG.openFailed)
    const cancelled = makeRoot({}, { directions: async () => 'cancelled' })
    await cancelled.root.directions.open(PLACE)
    expect(cancelled.root.app.notices).toEqual([])
  })

  it('opens one map for a double tap', async () => {
    let finish: (v: 'opened') => void = () => undefined
    const { root, navigatedTo } = makeRoot({}, { directions: () => new Promise((r) => (finish = r)) })
    const first = root.directions.open(PLACE)
    expect(root.directions.opening).toBe(true)
    await expect(root.directions.open(PLACE)).resolves.toBeNull()
    finish('opened')
    await first
    expect(navigatedTo).toHaveLength(1)
    expect(root.directions.opening).toBe(false)
    const again = root.directions.open(PLACE)
    finish('opened')
    await again
    expect(navigatedTo).toHaveLength(2)
  })
})
