/**
 * The membership client's pure rules: the usage meters of the membership centre, what a
 * product card offers, the trial welcome, when a paid membership has arrived (SPEC 4 payment
 * callback), and the dialog picked for a trial on its first day. The tier rules themselves (limits,
 * reminder window, purchases) are in vip.test.ts.
 */
import { VIP_MSG } from '../../src/domain/vipMessages'
import { shanghaiDay, trialWelcomeDue, vipPrompt } from '../../src/domain/tiers'
import { PAYMENT_POLL_TRIES, VERIFY_QUESTIONS, VIP_PRODUCTS, paymentArrived, productAction, usageMeters } from '../../src/domain/vip'
import { PAYMENT_USERINFO_POLL_MS } from '../../src/domain/constants'

const DAY = 24 * 3600_000
/** 10:00 on 1 June 2025 in Asia/Shanghai. */
const NOW = new Date('2025-06-01T02:00:00.000Z')
const at = (ms: number) => new Date(NOW.getTime() + ms).toISOString()

type Usage = { markers: number; members: number; pending: number; storage_kb: number }
const trialLimits = { marker_limit: 300, join_limit: 5, file_size_limit: 307200 }
function meters(usage: Partial<Usage>, effective = trialLimits) {
  return usageMeters({ effective, usage: { markers: 0, members: 1, pending: 0, storage_kb: 0, ...usage } })
}
const byKey = (list: ReturnType<typeof meters>) => Object.fromEntries(list.map((m) => [m.key, m]))

describe('usage meters of the membership centre', () => {
  it('shows markers, people and storage in that order with their texts', () => {
    const list = meters({ markers: 12, members: 3, pending: 0, storage_kb: 1536 })
    expect(list.map((m) => [m.key, m.label, m.text])).toEqual([
      ['markers', '标注数量', '12 / 300'],
      ['members', '协作成员', '2 / 5人'],
      ['storage', '存储空间', '1.5M / 300M'],
    ])
  })

  it('counts collaborators as the join limit does: members but the administrator, plus pending pre-registrations', () => {
    const m = byKey(meters({ members: 3, pending: 2 })).members
    expect(m).toMatchObject({ used: 4, limit: 5, text: '4 / 5人', percent: 80 })
    // The administrator alone uses nothing; a trial with 5 collaborators is at its limit.
    expect(byKey(meters({ members: 1 })).members).toMatchObject({ used: 0, text: '0 / 5人', percent: 0, state: 'ok' })
    expect(byKey(meters({ members: 6 })).members).toMatchObject({ used: 5, text: '5 / 5人', percent: 100, state: 'over' })
    expect(byKey(meters({ members: 51 }, { marker_limit: 5000, join_limit: 50, file_size_limit: 2097152 })).members).toMatchObject({ text: '50 / 50人', state: 'over' })
  })

  it('writes storage of 1048576 KB or more in G to one decimal, below it in M (SPEC 9)', () => {
    const vip3 = { marker_limit: 5000, join_limit: 50, file_size_limit: 2097152 }
    expect(byKey(meters({ storage_kb: 1048576 }, vip3)).storage.text).toBe('1.0G / 2.0G')
    expect(byKey(meters({ storage_kb: 1048575 }, vip3)).storage.text).toBe('1024.0M / 2.0G')
    expect(byKey(meters({ storage_kb: 1572864 }, vip3)).storage.text).toBe('1.5G / 2.0G')
    expect(byKey(meters({ storage_kb: 0 })).storage.text).toBe('0M / 300M')
  })

  it('is ok below 80 %, warn from 80 %, over at or above the limit', () => {
    expect(byKey(meters({ markers: 239 })).markers).toMatchObject({ percent: 80, state: 'ok' }) // 79.7 % shows as 80 but is not yet 80 %
    expect(byKey(meters({ markers: 240 })).markers).toMatchObject({ percent: 80, state: 'warn' })
    expect(byKey(meters({ markers: 299 })).markers).toMatchObject({ percent: 100, state: 'warn' })
    expect(byKey(meters({ markers: 300 })).markers).toMatchObject({ percent: 100, state: 'over' })
    expect(byKey(meters({ members: 2 })).members).toMatchObject({ percent: 20, state: 'ok' })
  })

  it('caps the bar at 100 % when above the limit (an expired membership on the free plan)', () => {
    const free = { marker_limit: 20, join_limit: 0, file_size_limit: 102400 }
    const m = byKey(meters({ markers: 250, members: 4, pending: 1, storage_kb: 204800 }, free))
    expect(m.markers).toMatchObject({ used: 250, limit: 20, text: '250 / 20', percent: 100, state: 'over' })
    expect(m.members).toMatchObject({ text: '4 / 0人', percent: 100, state: 'over' })
    expect(m.storage).toMatchObject({ text: '200M / 100M', percent: 100, state: 'over' })
  })

  it('reads a 0 limit as nothing allowed: empty is ok at 0 %, any use is over', () => {
    const zero = { marker_limit: 0, join_limit: 0, file_size_limit: 0 }
    const empty = byKey(meters({ markers: 0, members: 1, storage_kb: 0 }, zero))
    expect(empty.markers).toMatchObject({ text: '0 / 0', percent: 0, state: 'ok' })
    expect(empty.members).toMatchObject({ text: '0 / 0人', percent: 0, state: 'ok' }) // the administrator alone
    expect(empty.storage).toMatchObject({ text: '0M / 0M', percent: 0, state: 'ok' })
    const used = byKey(meters({ markers: 1, members: 2, storage_kb: 1 }, zero))
    expect(used.markers).toMatchObject({ percent: 100, state: 'over' })
    expect(used.members).toMatchObject({ percent: 100, state: 'over' })
    expect(used.storage).toMatchObject({ percent: 100, state: 'over' })
  })
})

describe('what a product card offers', () => {
  const [vip1, vip2, vip3] = VIP_PRODUCTS
  const g = (level: number, vip_exp: string | null) => ({ level, vip_exp })

  it('offers 购买 on free, trial and to an expired membership of another tier', () => {
    for (const group of [g(0, null), g(1, at(5 * DAY)), g(1, at(-DAY)), g(4, at(-DAY))]) {
      expect(productAction(group, vip1, NOW)).toEqual({ label: '购买', disabledReason: null })
    }
    // An expired higher tier no longer blocks a lower one.
    expect(productAction(g(4, at(-1)), vip2, NOW)).toEqual({ label: '购买', disabledReason: null })
  })

  it('offers 续费 for the same tier, running or expired', () => {
    expect(productAction(g(3, at(10 * DAY)), vip2, NOW)).toEqual({ label: '续费', disabledReason: null })
    expect(productAction(g(3, at(-10 * DAY)), vip2, NOW)).toEqual({ label: '续费', disabledReason: null })
  })

  it('offers 升级 above a running or expired paid tier', () => {
    expect(productAction(g(2, at(10 * DAY)), vip2, NOW)).toEqual({ label: '升级', disabledReason: null })
    expect(productAction(g(2, at(10 * DAY)), vip3, NOW)).toEqual({ label: '升级', disabledReason: null })
    expect(productAction(g(3, at(-DAY)), vip3, NOW)).toEqual({ label: '升级', disabledReason: null })
  })

  it('refuses a lower tier while a higher paid tier runs, with the reason', () => {
    expect(productAction(g(4, at(DAY)), vip1, NOW)).toEqual({ label: '不可购买', disabledReason: VIP_MSG.lowerTier })
    expect(productAction(g(4, at(DAY)), vip2, NOW)).toEqual({ label: '不可购买', disabledReason: VIP_MSG.lowerTier })
    expect(productAction(g(3, at(DAY)), vip1, NOW).disabledReason).toBe(VIP_MSG.lowerTier)
    // The last moment counts as expired (vip_exp <= now).
    expect(productAction(g(4, at(0)), vip1, NOW).disabledReason).toBeNull()
  })
})

describe('the trial welcome (SPEC 2)', () => {
  const trial = { level: 1, vip_exp: at(7 * DAY) }

  it('greets the administrator of a running trial who has not filled in the questionnaire', () => {
    expect(trialWelcomeDue(trial, true, false, false, NOW)).toBe(true)
    expect(trialWelcomeDue({ level: 1, vip_exp: at(1) }, true, false, false, NOW)).toBe(true)
  })

  it('greets once: not when shown before', () => {
    expect(trialWelcomeDue(trial, true, false, true, NOW)).toBe(false)
  })

  it('does not greet a verified user, a member, or without a membership', () => {
    expect(trialWelcomeDue(trial, true, true, false, NOW)).toBe(false)
    expect(trialWelcomeDue(trial, false, false, false, NOW)).toBe(false)
    expect(trialWelcomeDue(null, true, false, false, NOW)).toBe(false)
    expect(trialWelcomeDue(undefined, true, false, false, NOW)).toBe(false)
  })

  it('does not greet an expired trial, nor free or paid levels', () => {
    expect(trialWelcomeDue({ level: 1, vip_exp: at(0) }, true, false, false, NOW)).toBe(false)
    expect(trialWelcomeDue({ level: 1, vip_exp: at(-DAY) }, true, false, false, NOW)).toBe(false)
    expect(trialWelcomeDue({ level: 0, vip_exp: null }, true, false, false, NOW)).toBe(false)
    for (const level of [2, 3, 4]) expect(trialWelcomeDue({ level, vip_exp: at(30 * DAY) }, true, false, false, NOW)).toBe(false)
  })
})

describe('when a paid membership has arrived (SPEC 4 payment callback)', () => {
  const m = (level: number, vip_exp: string | null) => ({ level, vip_exp })

  it("arrives when the group is at the order's level with a later expiry", () => {
    expect(paymentArrived(m(1, at(5 * DAY)), m(2, at(365 * DAY)), 2)).toBe(true) // trial -> VIP 1
    expect(paymentArrived(m(0, null), m(3, at(365 * DAY)), 3)).toBe(true) // free -> VIP 2
    expect(paymentArrived(m(3, at(10 * DAY)), m(3, at(375 * DAY)), 3)).toBe(true) // renewal
    expect(paymentArrived(m(2, at(100 * DAY)), m(4, at(380 * DAY)), 4)).toBe(true) // upgrade
  })

  it('has not arrived while the expiry is the same (the order is not applied yet)', () => {
    expect(paymentArrived(m(3, at(10 * DAY)), m(3, at(10 * DAY)), 3)).toBe(false)
    expect(paymentArrived(m(1, at(5 * DAY)), m(1, at(5 * DAY)), 2)).toBe(false)
    expect(paymentArrived(m(0, null), m(0, null), 2)).toBe(false)
  })

  it("has not arrived below the order's level, nor without user info", () => {
    expect(paymentArrived(m(1, at(5 * DAY)), m(2, at(365 * DAY)), 3)).toBe(false)
    expect(paymentArrived(m(1, at(5 * DAY)), m(1, at(35 * DAY)), 2)).toBe(false) // the questionnaire's days are not the payment
    expect(paymentArrived(m(1, at(5 * DAY)), null, 2)).toBe(false)
    expect(paymentArrived(m(1, at(5 * DAY)), undefined, 2)).toBe(false)
  })

  it('arrives for a crossed order: a higher tier that runs gains time', () => {
    expect(paymentArrived(m(4, at(10 * DAY)), m(4, at(62 * DAY)), 2)).toBe(true)
    expect(paymentArrived(m(4, at(10 * DAY)), m(4, at(10 * DAY)), 2)).toBe(false)
  })

  it('polls for two minutes at most (3 s apart)', () => {
    expect(PAYMENT_POLL_TRIES * PAYMENT_USERINFO_POLL_MS).toBe(120_000)
  })
})

describe('the dialog picked for a new trial (SPEC 4: a trial at exactly 7 days is skipped)', () => {
  const today = shanghaiDay(NOW)
  it("shows no reminder on a trial's first day so the welcome can greet, but does from 6 days", () => {
    expect(vipPrompt({ level: 1, vip_exp: at(7 * DAY) }, true, NOW, null)).toBeNull()
    expect(vipPrompt({ level: 1, vip_exp: at(6 * DAY) }, true, NOW, null)).toEqual({ kind: 'reminder', days: 6 })
    expect(vipPrompt({ level: 1, vip_exp: at(6 * DAY) }, false, NOW, null)).toEqual({ kind: 'reminder', days: 6 })
  })
  it('shows the expired dialog whatever day the reminder last showed', () => {
    expect(vipPrompt({ level: 2, vip_exp: at(-DAY) }, true, NOW, today)).toEqual({ kind: 'expired_admin' })
    expect(vipPrompt({ level: 2, vip_exp: at(-DAY) }, false, NOW, today)).toEqual({ kind: 'expired_member' })
  })
})

describe('the questionnaire questions (SPEC 5: 问卷1-3)', () => {
  it('has three, numbered, the second optional', () => {
    expect(VERIFY_QUESTIONS).toHaveLength(3)
    VERIFY_QUESTIONS.forEach((q, i) => expect(q.startsWith(`问卷${i + 1}`)).toBe(true))
    expect(VERIFY_QUESTIONS[1]).toContain('选填')
  })
})
