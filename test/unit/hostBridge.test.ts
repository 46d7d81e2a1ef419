import { HOST_MESSAGE_POLL_MS } from '../../src/domain/constants'
import { decodeHostMessage, encodeHostMessage, HOST_POLL_MS, HOST_REPLY_TYPE, HOST_REQUEST_TIMEOUT_MS, makeRequestIds } from '../../src/domain/hostMessages'
import { createWindowHostTransport, HostBridge, HostClosedError, HostTimeoutError, HostUnavailableError } from '../../src/platform/host/bridge'
import type { HostScheduler, HostTransport, HostWindow } from '../../src/platform/host/types'
import { hostBridge as neutralBridge, isInHostApp as neutralIsInHostApp } from '../../src/platform/host'

/** The host side of a test: what the page posted, and an inbox the test pushes replies into. */
function fakeHost(available = true) {
  const posted: string[] = []
  const inbox: unknown[] = []
  const transport: HostTransport = {
    available: () => available,
    post: (json) => {
      posted.push(json)
    },
    drain: () => inbox.splice(0),
  }
  const sentIds = () => posted.map((json) => JSON.parse(json).id as string)
  return { posted, inbox, transport, sentIds }
}

const timers: HostScheduler = {
  setInterval: (fn, ms) => setInterval(fn, ms),
  clearInterval: (h) => clearInterval(h as ReturnType<typeof setInterval>),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
}

function makeBridge(available = true) {
  const host = fakeHost(available)
  const errors: unknown[] = []
  const bridge = new HostBridge(host.transport, timers, { nextId: makeRequestIds('t'), onError: (e) => errors.push(e) })
  return { host, bridge, errors }
}

/** Runs the microtasks that settle promises without moving the clock. */
const flush = () => Promise.resolve().then(() => undefined)

describe('host messages: envelope (SPEC 7)', () => {
  it("the poll period is SPEC 9's 1 s, the constant from constants.ts", () => {
    expect(HOST_POLL_MS).toBe(1000)
    expect(HOST_POLL_MS).toBe(HOST_MESSAGE_POLL_MS)
  })

  it('encodes {v:1, type, id?, data} and decodes it back, from a string or an object', () => {
    const json = encodeHostMessage('pay', { orderid: 7, order_no: 'N7', amount: 990 }, 'r-1')
    expect(JSON.parse(json)).toEqual({ v: 1, type: 'pay', id: 'r-1', data: { orderid: 7, order_no: 'N7', amount: 990 } })
    expect(decodeHostMessage(json)).toEqual({ v: 1, type: 'pay', id: 'r-1', data: { orderid: 7, order_no: 'N7', amount: 990 } })

    const noId = encodeHostMessage('order_paid_callback', { orderid: 3 })
    expect(JSON.parse(noId)).not.toHaveProperty('id')
    expect(decodeHostMessage(JSON.parse(noId))).toEqual({ v: 1, type: 'order_paid_callback', data: { orderid: 3 } })

    const reply = decodeHostMessage({ v: 1, type: 'check_location_callback', id: 'r-2', data: { lng: 116.4, lat: 39.9, accuracy: 12 } })
    expect(reply?.type).toBe('check_location_callback')
    expect(reply?.data).toEqual({ lng: 116.4, lat: 39.9, accuracy: 12 })
  })

  it('every SPEC 7 type and the pay extension round-trip', () => {
    const samples = [
      encodeHostMessage('open_url', { url: 'https://example.com' }),
      encodeHostMessage('location', {}, 'a'),
      encodeHostMessage('start_location', { interval_ms: 2000 }),
      encodeHostMessage('check_location', {}, 'b'),
      encodeHostMessage('open_app_auth_setting', {}),
      encodeHostMessage('save_img', { url: 'https://example.com/a.png' }),
      encodeHostMessage('save_img', { data: 'data:image/png;base64,AAAA' }),
      encodeHostMessage('edit_marker_callback', { marker_id: 5 }),
      encodeHostMessage('camera_callback', { images: ['data:image/jpeg;base64,AA'] }, 'c'),
      encodeHostMessage('camera', { count: 1, facing: 'back' }, 'g'),
      encodeHostMessage('edit_note_callback', {}),
      encodeHostMessage('upload_img_callback', { urls: ['https://x/1.png'], error: undefined }, 'd'),
      encodeHostMessage('pay_callback', { orderid: 1, ok: false, cancelled: true }, 'e'),
      encodeHostMessage('check_location_callback', { allowed: true }, 'f'),
    ]
    for (const json of samples) {
      const decoded = decodeHostMessage(json)
      expect(decoded).not.toBeNull()
      expect(JSON.parse(encodeHostMessage(decoded!.type, decoded!.data as never, decoded!.id))).toEqual(JSON.parse(json))
    }
  })

  it('rejects, with null and without throwing, what is not a v1 envelope of a known type', () => {
    const bad: unknown[] = [
      undefined,
      null,
      42,
      '',
      'not json',
      '[]',
      '"pay_callback"',
      [],
      { type: 'order_paid_callback', data: { orderid: 1 } }, // no v
      { v: 2, type: 'order_paid_callback', data: { orderid: 1 } }, // wrong v
      { v: '1', type: 'order_paid_callback', data: { orderid: 1 } },
      { v: 1, type: 'nope_callback', data: {} }, // unknown type
      { v: 1, type: 'toString', data: {} }, // not an own key
      { v: 1, type: 'order_paid_callback' }, // no data
      { v: 1, type: 'order_paid_callback', data: 'x' }, // data not an object
      { v: 1, type: 'order_paid_callback', data: [1] },
      { v: 1, type: 'order_paid_callback', data: null },
      { v: 1, type: 'order_paid_callback', data: { orderid: '1' } }, // wrong field type
      { v: 1, type: 'pay_callback', id: 'x', data: { orderid: 1 } }, // ok missing
      { v: 1, type: 'camera_callback', data: { images: [1] } },
      { v: 1, type: 'camera', data: { count: 0 } }, // no photo asked for
      { v: 1, type: 'camera', data: { count: 1, facing: 'side' } },
      { v: 1, type: 'check_location_callback', data: { lng: 1 } }, // half a position
      { v: 1, type: 'save_img', data: { url: 'a', data: 'b' } }, // both sources
      { v: 1, type: 'pay_callback', id: 5, data: { orderid: 1, ok: true } }, // id not a string
      { v: 1, type: 'pay_callback', id: '', data: { orderid: 1, ok: true } },
    ]
    for (const raw of bad) {
      expect(() => decodeHostMessage(raw)).not.toThrow()
      expect(decodeHostMessage(raw)).toBeNull()
    }
  })

  it('an id the host put inside data is understood; the envelope id wins', () => {
    expect(decodeHostMessage({ v: 1, type: 'pay_callback', data: { id: 'r-9', orderid: 1, ok: true } })?.id).toBe('r-9')
    expect(decodeHostMessage({ v: 1, type: 'pay_callback', id: 'r-1', data: { id: 'r-9', orderid: 1, ok: true } })?.id).toBe('r-1')
  })

  it('request ids are deterministic per generator', () => {
    const a = makeRequestIds('p')
    const b = makeRequestIds('p')
    expect([a(), a(), a()]).toEqual(['p-1', 'p-2', 'p-3'])
    expect(b()).toBe('p-1')
  })

  it('replies and timeouts per type: location and check_location by check_location_callback, pay by pay_callback, camera by camera_callback', () => {
    expect(HOST_REPLY_TYPE).toEqual({ location: 'check_location_callback', check_location: 'check_location_callback', pay: 'pay_callback', camera: 'camera_callback' })
    expect(HOST_REQUEST_TIMEOUT_MS).toEqual({ location: 10000, check_location: 10000, pay: 30000, camera: 120000 })
  })
})

describe('HostBridge', () => {
  beforeEach(() => {
    jest.useFakeTimers()
  })
  afterEach(() => {
    jest.clearAllTimers()
    jest.useRealTimers()
  })

  it('send posts one encoded envelope without an id', () => {
    const { host, bridge } = makeBridge()
    bridge.send('open_url', { url: 'https://example.com/help' })
    expect(host.posted.map((j) => JSON.parse(j))).toEqual([{ v: 1, type: 'open_url', data: { url: 'https://example.com/help' } }])
  })

  it('send outside the host app throws a clear error and posts nothing; request rejects', async () => {
    const { host, bridge } = makeBridge(false)
    expect(bridge.available).toBe(false)
    expect(() => bridge.send('save_img', { url: 'https://x/a.png' })).toThrow(HostUnavailableError)
    expect(() => bridge.send('save_img', { url: 'https://x/a.png' })).toThrow(/not running inside the host app/)
    await expect(bridge.request('check_location', {})).rejects.toBeInstanceOf(HostUnavailableError)
    expect(host.posted).toEqual([])
    expect(bridge.pendingCount).toBe(0)
  })

  it('two concurrent requests answered out of order each get their own reply', async () => {
    const { host, bridge } = makeBridge()
    const pay = bridge.request('pay', { orderid: 11, order_no: 'N11', amount: 100 })
    const where = bridge.request('location', {})
    const [payId, whereId] = host.sentIds()
    expect(payId).toBe('t-1')
    expect(whereId).toBe('t-2')

    host.inbox.push(encodeHostMessage('check_location_callback', { lng: 121.47, lat: 31.23 }, whereId), { v: 1, type: 'pay_callback', id: payId, data: { orderid: 11, ok: true } })
    jest.advanceTimersByTime(HOST_POLL_MS)
    await expect(where).resolves.toEqual({ lng: 121.47, lat: 31.23 })
    await expect(pay).resolves.toEqual({ orderid: 11, ok: true })
    expect(bridge.pendingCount).toBe(0)
  })

  it('a reply of the wrong type or with an unknown id does not settle a request', async () => {
    const { host, bridge } = makeBridge()
    let settled = false
    const pay = bridge.request('pay', { orderid: 1, order_no: 'N1', amount: 1 }).finally(() => {
      settled = true
    })
    const [id] = host.sentIds()
    host.inbox.push(encodeHostMessage('check_location_callback', { allowed: true }, id), encodeHostMessage('pay_callback', { orderid: 1, ok: true }, 'someone-else'))
    jest.advanceTimersByTime(HOST_POLL_MS)
    await flush()
    expect(settled).toBe(false)
    expect(bridge.pendingCount).toBe(1)
    host.inbox.push(encodeHostMessage('pay_callback', { orderid: 1, ok: false, cancelled: true }, id))
    jest.advanceTimersByTime(HOST_POLL_MS)
    await expect(pay).resolves.toEqual({ orderid: 1, ok: false, cancelled: true })
  })

  it('a request without a reply rejects with HostTimeoutError after its timeout and is forgotten', async () => {
    const { host, bridge } = makeBridge()
    const seen: unknown[] = []
    bridge.on('check_location_callback', (data) => seen.push(data))
    const where = bridge.request('check_location', {})
    const outcome = where.then(
      () => 'resolved',
      (e: unknown) => e,
    )
    jest.advanceTimersByTime(HOST_REQUEST_TIMEOUT_MS.check_location - 1)
    await flush()
    expect(bridge.pendingCount).toBe(1)
    jest.advanceTimersByTime(1)
    const error = await outcome
    expect(error).toBeInstanceOf(HostTimeoutError)
    expect((error as HostTimeoutError).type).toBe('check_location')
    expect(bridge.pendingCount).toBe(0)

    // a late reply only reaches the handlers
    host.inbox.push(encodeHostMessage('check_location_callback', { allowed: true }, host.sentIds()[0]))
    jest.advanceTimersByTime(HOST_POLL_MS)
    expect(seen).toEqual([{ allowed: true }])
  })

  it('a request honours its own timeoutMs', async () => {
    const { bridge } = makeBridge()
    const outcome = bridge.request('pay', { orderid: 2, order_no: 'N2', amount: 5 }, { timeoutMs: 500 }).catch((e: unknown) => e)
    jest.advanceTimersByTime(500)
    expect(await outcome).toBeInstanceOf(HostTimeoutError)
  })

  it('polls every 1 s: nothing is delivered before the tick, everything queued on it', () => {
    const { host, bridge } = makeBridge()
    const paid: number[] = []
    bridge.on('order_paid_callback', (data) => paid.push(data.orderid))
    bridge.start()
    host.inbox.push(encodeHostMessage('order_paid_callback', { orderid: 1 }), encodeHostMessage('order_paid_callback', { orderid: 2 }))
    jest.advanceTimersByTime(HOST_POLL_MS - 1)
    expect(paid).toEqual([])
    expect(host.inbox).toHaveLength(2)
    jest.advanceTimersByTime(1)
    expect(paid).toEqual([1, 2])
    expect(host.inbox).toHaveLength(0)
    host.inbox.push(encodeHostMessage('order_paid_callback', { orderid: 3 }))
    jest.advanceTimersByTime(HOST_POLL_MS)
    expect(paid).toEqual([1, 2, 3])
  })

  it('start is idempotent: one poll per second, not two', () => {
    const host = fakeHost()
    let drains = 0
    const counting: HostTransport = { ...host.transport, drain: () => (drains++, host.transport.drain()) }
    const bridge = new HostBridge(counting, timers, { onError: () => undefined })
    bridge.start()
    bridge.start()
    expect(bridge.polling).toBe(true)
    jest.advanceTimersByTime(3 * HOST_POLL_MS)
    expect(drains).toBe(3)
    bridge.stop()
    jest.advanceTimersByTime(3 * HOST_POLL_MS)
    expect(drains).toBe(3)
    expect(bridge.polling).toBe(false)
  })

  it('request starts polling so that its reply can arrive', async () => {
    const { host, bridge } = makeBridge()
    expect(bridge.polling).toBe(false)
    const allowed = bridge.request('check_location', {})
    expect(bridge.polling).toBe(true)
    host.inbox.push(encodeHostMessage('check_location_callback', { allowed: false }, host.sentIds()[0]))
    jest.advanceTimersByTime(HOST_POLL_MS)
    await expect(allowed).resolves.toEqual({ allowed: false })
  })

  it('unsolicited order_paid_callback reaches every on handler of its type, and only those; unsubscribe works', () => {
    const { host, bridge } = makeBridge()
    const a: unknown[] = []
    const b: unknown[] = []
    const other: unknown[] = []
    bridge.on('order_paid_callback', (data, envelope) => a.push([data, envelope.id]))
    const offB = bridge.on('order_paid_callback', (data) => b.push(data))
    bridge.on('pay_callback', (data) => other.push(data))
    bridge.start()
    host.inbox.push(encodeHostMessage('order_paid_callback', { orderid: 42 }))
    jest.advanceTimersByTime(HOST_POLL_MS)
    expect(a).toEqual([[{ orderid: 42 }, undefined]])
    expect(b).toEqual([{ orderid: 42 }])
    expect(other).toEqual([])

    offB()
    host.inbox.push(encodeHostMessage('order_paid_callback', { orderid: 43 }))
    jest.advanceTimersByTime(HOST_POLL_MS)
    expect(a).toHaveLength(2)
    expect(b).toHaveLength(1)
  })

  it('handlers also see replies to requests', async () => {
    const { host, bridge } = makeBridge()
    const seen: unknown[] = []
    bridge.on('pay_callback', (data, envelope) => seen.push(envelope.id))
    const pay = bridge.request('pay', { orderid: 5, order_no: 'N5', amount: 1 })
    host.inbox.push(encodeHostMessage('pay_callback', { orderid: 5, ok: true }, host.sentIds()[0]))
    jest.advanceTimersByTime(HOST_POLL_MS)
    await expect(pay).resolves.toEqual({ orderid: 5, ok: true })
    expect(seen).toEqual(['t-1'])
  })

  it('a throwing handler does not stop the other handlers, later messages or the poll', () => {
    const { host, bridge, errors } = makeBridge()
    const got: number[] = []
    bridge.on('order_paid_callback', () => {
      throw new Error('boom')
    })
    bridge.on('order_paid_callback', (data) => got.push(data.orderid))
    bridge.start()
    host.inbox.push(encodeHostMessage('order_paid_callback', { orderid: 1 }), encodeHostMessage('order_paid_callback', { orderid: 2 }))
    jest.advanceTimersByTime(HOST_POLL_MS)
    expect(got).toEqual([1, 2])
    expect(errors.map((e) => (e as Error).message)).toEqual(['boom', 'boom'])
    host.inbox.push(encodeHostMessage('order_paid_callback', { orderid: 3 }))
    jest.advanceTimersByTime(HOST_POLL_MS)
    expect(got).toEqual([1, 2, 3])
  })

  it('a throwing drain is reported and the next tick still polls', () => {
    let fail = true
    const inbox: unknown[] = []
    const transport: HostTransport = {
      available: () => true,
      post: () => undefined,
      drain: () => {
        if (fail) throw new Error('drain failed')
        return inbox.splice(0)
      },
    }
    const errors: unknown[] = []
    const got: number[] = []
    const bridge = new HostBridge(transport, timers, { onError: (e) => errors.push(e) })
    bridge.on('order_paid_callback', (data) => got.push(data.orderid))
    bridge.start()
    jest.advanceTimersByTime(HOST_POLL_MS)
    expect(errors).toHaveLength(1)
    fail = false
    inbox.push(encodeHostMessage('order_paid_callback', { orderid: 9 }))
    jest.advanceTimersByTime(HOST_POLL_MS)
    expect(got).toEqual([9])
  })

  it('undecodable messages and Sent types coming back are dropped and counted', () => {
    const { host, bridge } = makeBridge()
    const got: unknown[] = []
    bridge.on('order_paid_callback', (data) => got.push(data))
    bridge.start()
    host.inbox.push('{oops', { v: 3, type: 'order_paid_callback', data: { orderid: 1 } }, encodeHostMessage('open_url', { url: 'x' }), encodeHostMessage('order_paid_callback', { orderid: 1 }))
    jest.advanceTimersByTime(HOST_POLL_MS)
    expect(bridge.dropped).toBe(3)
    expect(got).toEqual([{ orderid: 1 }])
  })

  it('stop rejects every waiting request with HostClosedError and stops polling', async () => {
    const { host, bridge } = makeBridge()
    const got: unknown[] = []
    bridge.on('order_paid_callback', (data) => got.push(data))
    const pay = bridge.request('pay', { orderid: 1, order_no: 'N1', amount: 1 }).catch((e: unknown) => e)
    const where = bridge.request('location', {}).catch((e: unknown) => e)
    bridge.stop()
    expect(await pay).toBeInstanceOf(HostClosedError)
    expect(await where).toBeInstanceOf(HostClosedError)
    expect(bridge.pendingCount).toBe(0)
    expect(bridge.polling).toBe(false)
    host.inbox.push(encodeHostMessage('order_paid_callback', { orderid: 1 }))
    jest.advanceTimersByTime(5 * HOST_POLL_MS)
    expect(got).toEqual([])
    expect(host.inbox).toHaveLength(1)
  })

  it('a transport that fails to post rejects the request and forgets it', async () => {
    const transport: HostTransport = {
      available: () => true,
      post: () => {
        throw new Error('post failed')
      },
      drain: () => [],
    }
    const bridge = new HostBridge(transport, timers, { onError: () => undefined })
    await expect(bridge.request('check_location', {})).rejects.toThrow('post failed')
    expect(bridge.pendingCount).toBe(0)
  })
})

describe('window transport (H5)', () => {
  it('defines window.__teammapHost and drains what the host pushed, keeping what came before load', () => {
    const win: HostWindow = {}
    const transport = createWindowHostTransport(win)
    expect(transport.drain()).toEqual([])
    win.__teammapHost!.push('{"v":1}')
    win.__teammapHost!.push({ v: 1 })
    expect(transport.drain()).toEqual(['{"v":1}', { v: 1 }])
    expect(transport.drain()).toEqual([])

    const early: HostWindow = { __teammapHost: { queue: ['early'], push: () => undefined } }
    expect(createWindowHostTransport(early).drain()).toEqual(['early'])
  })

  it('is available only with a send channel, preferring React Native, then iOS, then Android', () => {
    const calls: string[] = []
    const win: HostWindow = {}
    const transport = createWindowHostTransport(win)
    expect(transport.available()).toBe(false)
    expect(() => transport.post('{}')).toThrow()

    win.TeamMapHost = {
      postMessage(json) {
        // Android interfaces need their receiver
        expect(this).toBe(win.TeamMapHost)
        calls.push(`android ${json}`)
      },
    }
    expect(transport.available()).toBe(true)
    transport.post('a')
    win.webkit = { messageHandlers: { teammap: { postMessage: (json) => calls.push(`ios ${json}`) } } }
    transport.post('b')
    win.ReactNativeWebView = { postMessage: (json) => calls.push(`rn ${json}`) }
    transport.post('c')
    expect(calls).toEqual(['android a', 'ios b', 'rn c'])
  })

  it('a bridge over the window transport answers a request the host pushes a reply for', async () => {
    jest.useFakeTimers()
    try {
      const posted: string[] = []
      const win: HostWindow = { ReactNativeWebView: { postMessage: (json) => posted.push(json) } }
      const bridge = new HostBridge(createWindowHostTransport(win), timers, { nextId: makeRequestIds('w') })
      const allowed = bridge.request('check_location', {})
      expect(JSON.parse(posted[0])).toEqual({ v: 1, type: 'check_location', id: 'w-1', data: {} })
      win.__teammapHost!.push({ v: 1, type: 'check_location_callback', id: 'w-1', data: { allowed: true } })
      jest.advanceTimersByTime(HOST_POLL_MS)
      await expect(allowed).resolves.toEqual({ allowed: true })
      bridge.stop()
    } finally {
      jest.useRealTimers()
    }
  })
})

describe('neutral entry (weapp)', () => {
  it('is never inside the host app: send throws, request rejects', async () => {
    expect(neutralIsInHostApp()).toBe(false)
    expect(neutralBridge.available).toBe(false)
    expect(() => neutralBridge.send('open_url', { url: 'https://example.com' })).toThrow(HostUnavailableError)
    await expect(neutralBridge.request('pay', { orderid: 1, order_no: 'N1', amount: 1 })).rejects.toBeInstanceOf(HostUnavailableError)
  })
})
