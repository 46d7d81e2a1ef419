/**
 * WeChat's privacy agreement on the client: a private API waiting for it opens the app's dialog,
 * the user's choice answers every waiting call, the guide opens (or says it could not), and a
 * position stopped by a refusal says so in Chinese without the location-permission dialog.
 */
import { PRIVACY_MSG, privacyFailureMessage } from '../../src/domain/privacy'
import { LocationError } from '../../src/platform/location/types'
import type { PrivacyChoice, PrivacyPlatform } from '../../src/platform/privacy/types'
import { makeRoot } from '../support/fakes'

function fakePrivacy(contractOpens = true) {
  let onNeed: ((resolve: (c: PrivacyChoice) => void) => void) | null = null
  const platform: PrivacyPlatform = {
    asks: true,
    listen: (fn) => void (onNeed = fn),
    openContract: jest.fn(async () => contractOpens),
  }
  /** A private API call that waits for the agreement: resolves with the choice WeChat got. */
  const call = () => new Promise<PrivacyChoice>((resolve) => onNeed?.(resolve))
  return { platform, call, listening: () => onNeed !== null }
}

describe('privacy agreement', () => {
  it('opens the dialog when a private API waits, and the agreement lets the call go on with the button id', async () => {
    const privacy = fakePrivacy()
    const { root } = makeRoot({}, { privacy: privacy.platform })
    root.app.listenPrivacy()
    expect(privacy.listening()).toBe(true)
    expect(root.app.privacy_asking).toBe(false)
    const waiting = privacy.call()
    expect(root.app.privacy_asking).toBe(true)
    root.app.agreePrivacy('privacy-agree')
    await expect(waiting).resolves.toEqual({ event: 'agree', buttonId: 'privacy-agree' })
    expect(root.app.privacy_asking).toBe(false)
  })

  it('answers every waiting call with a refusal, and closes the dialog', async () => {
    const privacy = fakePrivacy()
    const { root } = makeRoot({}, { privacy: privacy.platform })
    root.app.listenPrivacy()
    const first = privacy.call()
    const second = privacy.call()
    root.app.refusePrivacy()
    await expect(first).resolves.toEqual({ event: 'disagree' })
    await expect(second).resolves.toEqual({ event: 'disagree' })
    expect(root.app.privacy_asking).toBe(false)
  })

  it('opens the privacy guide, and says so when it cannot', async () => {
    const opens = fakePrivacy(true)
    const a = makeRoot({}, { privacy: opens.platform })
    await a.root.app.openPrivacyContract()
    expect(opens.platform.openContract).toHaveBeenCalledTimes(1)
    expect(a.root.app.notices.map((n) => n.text)).not.toContain(PRIVACY_MSG.contractFailed)
    const fails = fakePrivacy(false)
    const b = makeRoot({}, { privacy: fails.platform })
    await b.root.app.openPrivacyContract()
    expect(b.root.app.notices.at(-1)?.text).toBe(PRIVACY_MSG.contractFailed)
  })

  it('does nothing on a platform without the agreement (H5)', () => {
    const { root } = makeRoot()
    root.app.listenPrivacy()
    expect(root.app.privacy_asking).toBe(false)
  })

  it('tells the user why 定位 gave no position after a refusal, without the location-permission dialog', async () => {
    const locate = jest.fn(async () => {
      throw new LocationError('privacy', PRIVACY_MSG.refused)
    })
    const { root } = makeRoot({}, { geo: { locate } })
    expect(await root.tracker.locateNow()).toBeNull()
    expect(root.app.notices.at(-1)?.text).toBe(PRIVACY_MSG.refused)
    expect(root.tracker.showPermissionDialog).toBe(false)
    expect(root.tracker.running).toBe(false)
  })
})

describe('tracking after a refused agreement', () => {
  beforeEach(() => jest.useFakeTimers())
  afterEach(() => jest.useRealTimers())

  it('stops polling, so that WeChat does not put its prompt up every few seconds', async () => {
    let refused = false
    const locate = jest.fn(async () => {
      if (refused) throw new LocationError('privacy', PRIVACY_MSG.refused)
      return { lng: 116.397, lat: 39.909, accuracy: 10 }
    })
    const { root } = makeRoot({}, { geo: { locate } })
    expect(await root.tracker.locateNow()).not.toBeNull()
    expect(root.tracker.running).toBe(true)
    refused = true
    await jest.advanceTimersByTimeAsync(30_000)
    expect(root.tracker.running).toBe(false)
    const calls = locate.mock.calls.length
    await jest.advanceTimersByTimeAsync(30_000)
    expect(locate.mock.calls.length).toBe(calls)
  })
})

describe('privacyFailureMessage', () => {
  it("turns WeChat's English privacy failures into Chinese with the way out, and leaves other failures alone", () => {
    expect(privacyFailureMessage({ errMsg: 'getLocation:fail privacy permission is not authorized', errno: 104 })).toBe(PRIVACY_MSG.refused)
    expect(privacyFailureMessage({ errMsg: 'chooseImage:fail api scope is not declared in the privacy agreement', errno: 112 })).toBe(PRIVACY_MSG.undeclared)
    expect(privacyFailureMessage({ errno: 112 })).toBe(PRIVACY_MSG.undeclared)
    expect(privacyFailureMessage({ errMsg: 'getLocation:fail auth deny' })).toBeNull()
    expect(privacyFailureMessage(new Error('timeout'))).toBeNull()
    expect(PRIVACY_MSG.refused).toMatch(/同意/)
    expect(PRIVACY_MSG.undeclared).toMatch(/联系客服/)
  })
})
