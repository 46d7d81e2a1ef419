/**
 * Password shares: /api/share/check/pwd answers a short-lived proof signed for one
 * share; the data calls refuse without a valid proof for THIS share; wrong tries are limited per
 * share and client address with a growing wait (never per share alone), counted in the database (so that they hold across requests,
 * app instances and processes) with the injected clock; the signing secret survives a restart.
 */
import { ErrCode } from '../../types/api'
import { MSG } from '../../src/domain/messages'
import { SHARE_MSG } from '../../src/domain/shareMessages'
import { buildApp } from '../../server/src/app'
import { SHARE_PROOF_TTL_MS, SHARE_PWD_WINDOW_MS, sharePwdDelayMs } from '../../server/src/services/shares'
import { RATE_MSG } from '../../src/domain/consentMessages'
import { callFrom, makeShareWorld, ok, type ShareWorld } from './share-fixture'

// Each try hashes with scrypt: on a loaded 2-core machine the longer tests pass jest's 5 s default.
jest.setTimeout(30_000)

let w: ShareWorld
let id: string
let other: string

beforeEach(async () => {
  w = await makeShareWorld()
  id = await w.share({ data_ids: [w.layers.a], need_pwd: true, pwd: '2468' })
  other = await w.share({ data_ids: [w.layers.b], need_pwd: true, pwd: '1357' })
})

afterEach(async () => {
  await w.close()
})

const IP_A = '203.0.113.1'
const IP_B = '203.0.113.2'

const check = (ip: string, shareId: string, pwd: string, app = w.t.app) => callFrom(app, ip, '/api/share/check/pwd', { id: shareId, pwd })
const layers = (shareId: string, proof?: string, app = w.t.app) => callFrom(app, IP_A, '/api/layer/get/share', { share_id: shareId, ...(proof === undefined ? {} : { proof }) })
const markers = (shareId: string, proof?: string) => callFrom(w.t.app, IP_A, '/api/marker/get/share', { share_id: shareId, ...(proof === undefined ? {} : { proof }) })

function expectError(res: { errcode: number; errmsg: string; data: unknown }, errcode: ErrCode, errmsg: string) {
  expect({ errcode: res.errcode, errmsg: res.errmsg, data: res.data }).toEqual({ errcode, errmsg, data: null })
}

async function tries(): Promise<number> {
  return (await w.t.db.kysely.selectFrom('share_pwd_tries').selectAll().execute()).length
}

describe('the password and its proof', () => {
  it('tells anybody the share needs a password, and refuses its data without a proof', async () => {
    expect(ok(await callFrom(w.t.app, IP_A, '/api/share/getbyid', { id }))).toMatchObject({ need_pwd: true })
    expectError(await layers(id), ErrCode.FORBIDDEN, SHARE_MSG.pwdNeeded)
    expectError(await markers(id), ErrCode.FORBIDDEN, SHARE_MSG.pwdNeeded)
    expectError(await layers(id, ''), ErrCode.FORBIDDEN, SHARE_MSG.pwdNeeded)
  })

  it('refuses a wrong password, and answers a proof lasting 2 hours for the right one (trimmed, as the form checks it)', async () => {
    expectError(await check(IP_A, id, '1357'), ErrCode.VALIDATION, SHARE_MSG.pwdWrong)
    const res = ok(await check(IP_A, id, ' 2468 '))
    expect(res.expires_at).toBe(new Date(w.t.clock.now().getTime() + SHARE_PROOF_TTL_MS).toISOString())
    expect(typeof res.proof).toBe('string')
    expect(ok(await layers(id, res.proof)).map((l: any) => l.id)).toEqual([w.layers.a])
    expect(ok(await markers(id, res.proof)).total).toBe(2)
  })

  it('refuses an empty password without counting it as a try', async () => {
    expectError(await check(IP_A, id, '  '), ErrCode.VALIDATION, MSG.sharePwdRequired)
    expect(await tries()).toBe(0)
  })

  it('refuses a proof of another share, a tampered proof and a proof that has lapsed', async () => {
    const mine = ok(await check(IP_A, id, '2468')).proof as string
    const theirs = ok(await check(IP_A, other, '1357')).proof as string
    expectError(await layers(id, theirs), ErrCode.FORBIDDEN, SHARE_MSG.pwdNeeded)
    expectError(await markers(other, mine), ErrCode.FORBIDDEN, SHARE_MSG.pwdNeeded)

    const [expiry, signature] = mine.split('.')
    const later = `${Number(expiry) + 10 * 3600_000}.${signature}`
    const flipped = `${expiry}.${signature[0] === 'A' ? 'B' : 'A'}${signature.slice(1)}`
    for (const forged of [later, flipped, signature, `${expiry}.`, 'x'.repeat(60)]) expectError(await layers(id, forged), ErrCode.FORBIDDEN, SHARE_MSG.pwdNeeded)

    w.t.clock.advance(SHARE_PROOF_TTL_MS - 1)
    expect(ok(await layers(id, mine))).toHaveLength(1)
    w.t.clock.advance(1)
    expectError(await layers(id, mine), ErrCode.FORBIDDEN, SHARE_MSG.pwdNeeded)
    expectError(await markers(id, mine), ErrCode.FORBIDDEN, SHARE_MSG.pwdNeeded)
  })

  it('does not need a proof for a share without a password', async () => {
    const open = await w.share({ data_ids: [w.layers.c] })
    expect(ok(await layers(open)).map((l: any) => l.id)).toEqual([w.layers.c])
    expect(ok(await check(IP_A, open, 'anything'))).toHaveProperty('proof')
  })

  it('keeps the signing secret in the database: a proof outlives a restart of the app', async () => {
    const proof = ok(await check(IP_A, id, '2468')).proof as string
    const restarted = buildApp({ db: w.t.db, clock: w.t.clock, sms: w.t.sms })
    try {
      expect(ok(await layers(id, proof, restarted))).toHaveLength(1)
    } finally {
      await restarted.close()
    }
    expect(await w.t.db.kysely.selectFrom('server_secrets').select('name').execute()).toEqual([{ name: 'share_proof' }])
  })

  it('signs with SHARE_SECRET when configured: proofs of another secret are refused', async () => {
    const a = buildApp({ db: w.t.db, clock: w.t.clock, sms: w.t.sms, shareSecret: 'secret-one-0123456789' })
    const b = buildApp({ db: w.t.db, clock: w.t.clock, sms: w.t.sms, shareSecret: 'secret-two-0123456789' })
    try {
      const proof = ok(await check(IP_A, id, '2468', a)).proof as string
      expect(ok(await layers(id, proof, a))).toHaveLength(1)
      expectError(await layers(id, proof, b), ErrCode.FORBIDDEN, SHARE_MSG.pwdNeeded)
      expectError(await layers(id, proof), ErrCode.FORBIDDEN, SHARE_MSG.pwdNeeded)
    } finally {
      await a.close()
      await b.close()
    }
  })
})

describe('rate limits on wrong passwords', () => {
  const waitMsg = (seconds: number) => RATE_MSG.sharePwdWait(seconds)

  it('allows 5 wrong tries per share from one client address, then makes it wait 30 s, even with the right one; other clients and shares go on', async () => {
    for (let i = 0; i < 5; i++) expectError(await check(IP_A, id, `bad${i}`), ErrCode.VALIDATION, SHARE_MSG.pwdWrong)
    expectError(await check(IP_A, id, 'bad5'), ErrCode.RATE_LIMITED, waitMsg(30))
    expectError(await check(IP_A, id, '2468'), ErrCode.RATE_LIMITED, waitMsg(30))
    expect(ok(await check(IP_B, id, '2468'))).toHaveProperty('proof')
    expect(ok(await check(IP_A, other, '1357'))).toHaveProperty('proof')
    // Refused tries are not counted: they neither lengthen the wait nor come back later.
    expect(await tries()).toBe(5)
    w.t.clock.advance(29_000)
    expectError(await check(IP_A, id, '2468'), ErrCode.RATE_LIMITED, waitMsg(1))
    w.t.clock.advance(1_000)
    expect(ok(await check(IP_A, id, '2468'))).toHaveProperty('proof')
  })

  it('doubles the wait with each wrong try beyond the free ones, up to an hour', async () => {
    for (let i = 0; i < 5; i++) expectError(await check(IP_A, id, `bad${i}`), ErrCode.VALIDATION, SHARE_MSG.pwdWrong)
    const waits: number[] = []
    for (let i = 0; i < 10; i++) {
      const refused = await check(IP_A, id, 'still-wrong')
      expect(refused.errcode).toBe(ErrCode.RATE_LIMITED)
      const seconds = Number(/请(\d+)秒后再试/.exec(refused.errmsg)?.[1])
      waits.push(seconds)
      w.t.clock.advance(seconds * 1000)
      expectError(await check(IP_A, id, 'still-wrong'), ErrCode.VALIDATION, SHARE_MSG.pwdWrong)
    }
    expect(waits).toEqual([30, 60, 120, 240, 480, 960, 1920, 3600, 3600, 3600])
    expect(sharePwdDelayMs(4)).toBe(0)
  })

  it('an attacker trying from several addresses does not lock the other viewers of the share out', async () => {
    // Once 20 wrong tries from anywhere locked the share for everybody: four addresses were enough.
    for (let client = 1; client <= 4; client++) {
      for (let i = 0; i < 6; i++) {
        const res = await check(`198.51.100.${client}`, id, `guess${i}`)
        expect([ErrCode.VALIDATION, ErrCode.RATE_LIMITED]).toContain(res.errcode)
      }
    }
    for (let viewer = 1; viewer <= 5; viewer++) expect(ok(await check(`192.0.2.${viewer}`, id, '2468'))).toHaveProperty('proof')
  })

  it('forgets wrong tries after a day', async () => {
    for (let i = 0; i < 5; i++) expectError(await check(IP_A, id, `bad${i}`), ErrCode.VALIDATION, SHARE_MSG.pwdWrong)
    w.t.clock.advance(SHARE_PWD_WINDOW_MS)
    for (let i = 0; i < 5; i++) expectError(await check(IP_A, id, `again${i}`), ErrCode.VALIDATION, SHARE_MSG.pwdWrong)
  })

  it('does not count right passwords', async () => {
    for (let i = 0; i < 10; i++) ok(await check(IP_A, id, '2468'))
    for (let i = 0; i < 5; i++) expectError(await check(IP_A, id, `bad${i}`), ErrCode.VALIDATION, SHARE_MSG.pwdWrong)
  })

  it('counts in the database: a second app (another process) on the same database sees the same tries', async () => {
    const second = buildApp({ db: w.t.db, clock: w.t.clock, sms: w.t.sms })
    try {
      for (let i = 0; i < 3; i++) expectError(await check(IP_A, id, `bad${i}`), ErrCode.VALIDATION, SHARE_MSG.pwdWrong)
      for (let i = 0; i < 2; i++) expectError(await check(IP_A, id, `bad${i}`, second), ErrCode.VALIDATION, SHARE_MSG.pwdWrong)
      expectError(await check(IP_A, id, '2468', second), ErrCode.RATE_LIMITED, RATE_MSG.sharePwdWait(30))
      expectError(await check(IP_A, id, '2468'), ErrCode.RATE_LIMITED, RATE_MSG.sharePwdWait(30))
    } finally {
      await second.close()
    }
  })

  it('does not keep the client address itself', async () => {
    expectError(await check(IP_A, id, 'bad'), ErrCode.VALIDATION, SHARE_MSG.pwdWrong)
    const rows = await w.t.db.kysely.selectFrom('share_pwd_tries').selectAll().execute()
    expect(rows).toHaveLength(1)
    expect(JSON.stringify(rows)).not.toContain(IP_A)
  })

  it('answers an unknown share NOT_FOUND without recording a try', async () => {
    expectError(await check(IP_A, 'Z'.repeat(16), '2468'), ErrCode.NOT_FOUND, SHARE_MSG.notFound)
    expect(await tries()).toBe(0)
  })
})
