/** @jest-environment jsdom */
import { act, render } from '@testing-library/react'
import { runInAction } from 'mobx'
import { LayerPanelOnDemand, MarkerDetailOnDemand } from '../../src/pages/map/onDemand'
import { makeRoot } from '../support/fakes'

// The page's stores without the app's context module (it brings the platform's Taro modules in).
let mockRoot: ReturnType<typeof makeRoot>['root'] | null = null
jest.mock('../../src/stores/context', () => ({ useStores: () => mockRoot }))

// Count the runs of the parts' code: a part's chunk is run when it loads it (once a test file: each test takes another part).
let mockDetailLoads = 0
jest.mock('../../src/components/MarkerDetail', () => {
  mockDetailLoads++
  return { MarkerDetail: () => null }
})
let mockPanelLoads = 0
jest.mock('../../src/components/LayerPanel', () => {
  mockPanelLoads++
  return { LayerPanel: () => null }
})

// The map's panels load their code ahead, a little after the map is up, so that a tap finds it in.
// A big map's marker pages and index build come first: each chunk's run is a long task on a slow phone.
describe("the map's panels loaded ahead", () => {
  beforeEach(() => jest.useFakeTimers())
  afterEach(() => jest.useRealTimers())

  it('wait for the markers to be in, then load a moment later', async () => {
    const { root } = makeRoot()
    runInAction(() => {
      root.map.setLoaderState('loaded')
      root.markers.loadingLayerIds = [1, 2]
    })
    mockRoot = root
    render(<MarkerDetailOnDemand />)
    // The map is up but its markers are still loading: however long that takes, no panel code is run.
    await act(async () => {
      jest.advanceTimersByTime(10_000)
    })
    expect(mockDetailLoads).toBe(0)
    act(() => {
      runInAction(() => {
        root.markers.loadingLayerIds = []
      })
    })
    await act(async () => {
      jest.advanceTimersByTime(1499)
    })
    expect(mockDetailLoads).toBe(0)
    await act(async () => {
      jest.advanceTimersByTime(1)
    })
    expect(mockDetailLoads).toBe(1)
  })

  it('load at once when opened while the markers are loading', async () => {
    const { root } = makeRoot()
    runInAction(() => {
      root.map.setLoaderState('loaded')
      root.markers.loadingLayerIds = [1]
    })
    mockRoot = root
    render(<LayerPanelOnDemand visible onClose={() => undefined} />)
    await act(async () => {
      await Promise.resolve()
    })
    expect(mockPanelLoads).toBe(1)
  })
})
