import type { LazyKey, LazyStoreSet } from '../../src/stores/lazyStores'
import type { ViewStores } from '../../src/stores/context'
import { dataListStores } from '../../src/stores/dataListStores'
import { distributionStores } from '../../src/stores/distributionStores'
import { oplogStores } from '../../src/stores/oplogStores'
import { printStores } from '../../src/stores/printStores'
import { routeStores } from '../../src/stores/routeStores'
import { shareStores } from '../../src/stores/shareStores'
import { shareViewStores } from '../../src/stores/shareViewStores'
import { signStores } from '../../src/stores/signStores'
import { syncStores } from '../../src/stores/syncStores'
import { taskStores } from '../../src/stores/taskStores'
import { teamStores } from '../../src/stores/teamStores'
import { vipStores } from '../../src/stores/vipStores'
import { VipStore } from '../../src/stores/VipStore'
import { makeRoot } from '../support/fakes'

const SETS = [dataListStores, distributionStores, oplogStores, printStores, routeStores, shareStores, shareViewStores, signStores, syncStores, taskStores, teamStores, vipStores] as const
type KeysOf<S> = S extends LazyStoreSet<infer K> ? K : never
type Unregistered = Exclude<LazyKey, KeysOf<(typeof SETS)[number]>>

describe('stores of a few pages, made on first use', () => {
  it('have a registration module for every key', () => {
    // A key that no module registers does not compile.
    const none: [Unregistered] extends [never] ? true : false = true
    expect(none).toBe(true)
    const { root } = makeRoot()
    for (const key of SETS.flatMap((s) => s.keys)) expect(root[key]).toBe(root[key])
  })

  it('are read by a view only through the set its registration module exports', () => {
    const { root } = makeRoot()
    const bare: ViewStores = root
    // @ts-expect-error a view that passed no set has no membership store
    expect(bare.vip).toBeInstanceOf(VipStore)
    const withSet: ViewStores<KeysOf<typeof vipStores>> = root
    expect(withSet.vip).toBe(root.vip)
  })
})
