/** Membership rules (SPEC 1, 3, 4, 5, 9): tiers, trial, reminder, custom member, storage, products, discounts, questionnaire, reset. */
import { DEFAULT_GROUP_VIP, FREE_LIMITS, TRIAL_LIMITS, VIP_PRICES_FEN } from '../../src/domain/constants'
import { MSG } from '../../src/domain/messages'
import { COMPANY_SIZE_OPTIONS, VIP_MSG } from '../../src/domain/vipMessages'
import {
  addMonthsShanghai,
  applyPurchase,
  canRestoreHidden,
  checkResetRemark,
  effectiveLimits,
  formatStorage,
  freePlan,
  isCustomMember,
  levelName,
  limitsOfLevel,
  markersToHide,
  newTrial,
  purchaseProblem,
  questionnaireBonus,
  resetProblem,
  restoreUntil,
  shanghaiDay,
  shouldRemindExpiry,
  vipPrompt,
  type Membership,
} from '../../src/domain/tiers'
import {
  canBuyMembership,
  VIP_PRODUCTS,
  checkEnterprise,
  checkVerifyForm,
  describeDiscount,
  discountAmount,
  discountProblem,
  emptyVerifyForm,
  formatFen,
  normalizeDiscountCode,
  orderStatusAt,
  priceProduct,
  productById,
  toEnterprise,
  verifyFormOf,
  type DiscountRule,
  type VerifyForm,
} from '../../src/domain/vip'

const DAY = 24 * 3600_000
/** 10:00 on 1 June 2025 in Asia/Shanghai. */
const NOW = new Date('2025-06-01T02:00:00.000Z')
const at = (ms: number) => new Date(NOW.getTime() + ms).toISOString()

function group(level: number, vip_exp: string | null, limits = limitsOfLevel(level)): Membership {
  return { level, vip_exp, ...limits }
}

describe('levels and the limits of each tier', () => {
  it.each([
    [0, '免费版', FREE_LIMITS],
    [1, '试用版', TRIAL_LIMITS],
    [2, 'VIP 1', { marker_limit: 1000, join_limit: 10, file_size_limit: 524288 }],
    [3, 'VIP 2', { marker_limit: 3000, join_limit: 30, file_size_limit: 1048576 }],
    [4, 'VIP 3', DEFAULT_GROUP_VIP],
  ])('level %i is %s with its limits', (level, name, limits) => {
    expect(levelName(level as 0)).toBe(name)
    expect(limitsOfLevel(level)).toEqual({ ...limits })
  })

  it('has SPEC 9 defaults for the group VIP (VIP 3): 5000 markers, 50 joins, 2097152 KB', () => {
    expect(limitsOfLevel(4)).toEqual({ marker_limit: 5000, join_limit: 50, file_size_limit: 2097152 })
  })

  it('gives a trial 300 markers, 5 collaborators and 300 M, for 7 days', () => {
    const t = newTrial(NOW)
    expect(t).toMatchObject({ level: 1, marker_limit: 300, join_limit: 5, file_size_limit: 300 * 1024 })
    expect(t.vip_exp.getTime() - NOW.getTime()).toBe(7 * DAY)
  })

  it('keeps the latest 20 records and no collaborators on the free plan', () => {
    expect(FREE_LIMITS.marker_limit).toBe(20)
    expect(FREE_LIMITS.join_limit).toBe(0) // no collaborators: the administrator alone
    expect(freePlan()).toEqual({ level: 0, vip_exp: null, ...FREE_LIMITS })
  })

  it('applies the free plan to an expired membership of any level, nothing else', () => {
    for (const level of [1, 2, 3, 4]) {
      expect(effectiveLimits(group(level, at(-1)), NOW)).toEqual({ ...FREE_LIMITS, expired: true })
      expect(effectiveLimits(group(level, at(0)), NOW)).toEqual({ ...FREE_LIMITS, expired: true })
      expect(effectiveLimits(group(level, at(1)), NOW)).toEqual({ ...limitsOfLevel(level), expired: false })
    }
    expect(effectiveLimits(group(0, null), NOW)).toEqual({ ...FREE_LIMITS, expired: false })
    // A custom member's own limits hold while it runs.
    expect(effectiveLimits(group(4, at(DAY), { marker_limit: 20000, join_limit: 200, file_size_limit: 9 }), NOW)).toMatchObject({ marker_limit: 20000, join_limit: 200, file_size_limit: 9 })
  })
})

describe('custom member (SPEC 1)', () => {
  const vip3 = { level: 4 as const, ...DEFAULT_GROUP_VIP }
  it('is a VIP 3 whose limits differ from the defaults in any of the three', () => {
    expect(isCustomMember(vip3)).toBe(false)
    expect(isCustomMember({ ...vip3, marker_limit: 5001 })).toBe(true)
    expect(isCustomMember({ ...vip3, join_limit: 49 })).toBe(true)
    expect(isCustomMember({ ...vip3, file_size_limit: 2097153 })).toBe(true)
  })
  it('is not when all three limits are zero', () => {
    expect(isCustomMember({ ...vip3, marker_limit: 0, join_limit: 0, file_size_limit: 0 })).toBe(false)
    expect(isCustomMember({ ...vip3, marker_limit: 0, join_limit: 0, file_size_limit: 1 })).toBe(true)
  })
  it.each([0, 1, 2, 3])('is never at level %i', (level) => {
    expect(isCustomMember({ level: level as 0, marker_limit: 9999, join_limit: 1, file_size_limit: 1 })).toBe(false)
  })
  it('is shown as 定制会员', () => {
    expect(levelName(4, { ...vip3, marker_limit: 8000 })).toBe('定制会员')
    expect(levelName(4, vip3)).toBe('VIP 3')
  })
})

describe('storage display (SPEC 9)', () => {
  it.each([
    [2097152, '2.0G'],
    [1048576, '1.0G'],
    [1572864, '1.5G'],
    [1048575, '1024.0M'],
    [524288, '512M'],
    [307200, '300M'],
    [1536, '1.5M'],
    [0, '0M'],
  ])('%i KB is %s', (kb, text) => {
    expect(formatStorage(kb)).toBe(text)
  })
})

describe('expiry reminder (SPEC 4)', () => {
  const today = shanghaiDay(NOW)
  it('shows when the level is above 0 and 1-7 days remain', () => {
    for (const level of [2, 3, 4]) {
      for (let days = 1; days <= 7; days++) expect(shouldRemindExpiry(group(level, at(days * DAY)), NOW, null)).toBe(true)
      expect(shouldRemindExpiry(group(level, at(7 * DAY + 1)), NOW, null)).toBe(false) // 8 days, rounded up
      expect(shouldRemindExpiry(group(level, at(30 * DAY)), NOW, null)).toBe(false)
    }
  })
  it('counts a part of a day as a day (the last hours still remind)', () => {
    expect(shouldRemindExpiry(group(2, at(3600_000)), NOW, null)).toBe(true)
    expect(shouldRemindExpiry(group(2, at(6 * DAY + 1)), NOW, null)).toBe(true)
  })
  it('does not show on the free level, without an expiry, or once expired', () => {
    expect(shouldRemindExpiry(group(0, at(3 * DAY)), NOW, null)).toBe(false)
    expect(shouldRemindExpiry(group(2, null), NOW, null)).toBe(false)
    expect(shouldRemindExpiry(group(2, at(0)), NOW, null)).toBe(false)
    expect(shouldRemindExpiry(group(2, at(-DAY)), NOW, null)).toBe(false)
  })
  it('skips a trial at exactly 7 days, but not a trial at 6 or a VIP at 7', () => {
    expect(shouldRemindExpiry(group(1, at(7 * DAY)), NOW, null)).toBe(false)
    expect(shouldRemindExpiry(group(1, at(7 * DAY - 3600_000)), NOW, null)).toBe(false) // still 7 when rounded up
    expect(shouldRemindExpiry(group(1, at(6 * DAY)), NOW, null)).toBe(true)
    expect(shouldRemindExpiry(group(1, at(1 * DAY)), NOW, null)).toBe(true)
    expect(shouldRemindExpiry(group(2, at(7 * DAY)), NOW, null)).toBe(true)
  })
  it('shows at most once a day, the day taken in Asia/Shanghai', () => {
    const g = group(2, at(3 * DAY))
    expect(shouldRemindExpiry(g, NOW, today)).toBe(false)
    expect(shouldRemindExpiry(g, NOW, '2025-05-31')).toBe(true)
    // 23:59 Shanghai is still the same day; 00:00 the next.
    expect(shanghaiDay(new Date('2025-06-01T15:59:59Z'))).toBe('2025-06-01')
    expect(shanghaiDay(new Date('2025-06-01T16:00:00Z'))).toBe('2025-06-02')
    expect(shouldRemindExpiry(g, new Date('2025-06-01T15:59:59Z'), today)).toBe(false)
    expect(shouldRemindExpiry(g, new Date('2025-06-01T16:00:00Z'), today)).toBe(true)
  })
  it('picks the dialog: expired by role, else the reminder, else none', () => {
    expect(vipPrompt(group(2, at(-1)), true, NOW, null)).toEqual({ kind: 'expired_admin' })
    expect(vipPrompt(group(1, at(-1)), false, NOW, null)).toEqual({ kind: 'expired_member' })
    expect(vipPrompt(group(2, at(2 * DAY)), true, NOW, null)).toEqual({ kind: 'reminder', days: 2 })
    expect(vipPrompt(group(2, at(2 * DAY)), true, NOW, today)).toBeNull()
    expect(vipPrompt(group(0, null), true, NOW, null)).toBeNull()
    expect(vipPrompt(null, true, NOW, null)).toBeNull()
  })
})

describe('the questionnaire trial bonus (SPEC 1, 9)', () => {
  it('adds 30 days to a running trial from its expiry', () => {
    const bonus = questionnaireBonus(group(1, at(5 * DAY)), NOW)
    expect(bonus).toEqual({ vip_exp: new Date(at(35 * DAY)), days: 30 })
  })
  it('adds 30 days from now to an expired trial', () => {
    expect(questionnaireBonus(group(1, at(-3 * DAY)), NOW)?.vip_exp.toISOString()).toBe(at(30 * DAY))
  })
  it.each([0, 2, 3, 4])('gives nothing to level %i', (level) => {
    expect(questionnaireBonus(group(level, at(DAY)), NOW)).toBeNull()
  })
})

describe('calendar months in Asia/Shanghai', () => {
  it('adds months by the Shanghai calendar, clamping to the month end', () => {
    expect(addMonthsShanghai('2025-06-01T02:00:00.000Z', 12).toISOString()).toBe('2026-06-01T02:00:00.000Z')
    // 31 Jan 10:00 Shanghai + 1 month = 28 Feb 10:00.
    expect(addMonthsShanghai('2025-01-31T02:00:00.000Z', 1).toISOString()).toBe('2025-02-28T02:00:00.000Z')
    // 29 Feb 2024 + 12 months = 28 Feb 2025.
    expect(addMonthsShanghai('2024-02-29T02:00:00.000Z', 12).toISOString()).toBe('2025-02-28T02:00:00.000Z')
    // 31 Mar 01:00 Shanghai is 30 Mar 17:00 UTC: the Shanghai date (31st) is what is clamped.
    expect(addMonthsShanghai('2025-03-30T17:00:00.000Z', 1).toISOString()).toBe('2025-04-29T17:00:00.000Z')
  })
})

describe('purchases (what a paid order does to the group)', () => {
  const year = (from: string | Date) => addMonthsShanghai(from, 12).toISOString()
  it('starts the tier now from free, trial (days not carried) or an expired membership', () => {
    for (const g of [freePlan(), group(1, at(5 * DAY)), group(2, at(-DAY)), group(4, at(-DAY))]) {
      for (const level of [2, 3, 4] as const) {
        expect(applyPurchase(g, level, NOW)).toEqual({ level, vip_exp: year(NOW), ...limitsOfLevel(level) })
      }
    }
  })
  it('adds a year to the same tier while it runs', () => {
    expect(applyPurchase(group(3, at(10 * DAY)), 3, NOW)).toEqual({ level: 3, vip_exp: year(at(10 * DAY)), ...limitsOfLevel(3) })
  })
  it("upgrades from now and converts the lower tier's remaining time at the price ratio", () => {
    const result = applyPurchase(group(2, at(100 * DAY)), 4, NOW)
    const carried = Math.floor((100 * DAY * VIP_PRICES_FEN[2]) / VIP_PRICES_FEN[4])
    expect(result).toEqual({ level: 4, vip_exp: new Date(new Date(year(NOW)).getTime() + carried).toISOString(), ...DEFAULT_GROUP_VIP })
  })
  it('keeps a higher running tier and adds the bought time at the price ratio', () => {
    const g = group(4, at(10 * DAY))
    const result = applyPurchase(g, 2, NOW)
    const bought = new Date(year(NOW)).getTime() - NOW.getTime()
    expect(result).toEqual({ ...g, vip_exp: new Date(NOW.getTime() + 10 * DAY + Math.floor((bought * 8800) / 59800)).toISOString() })
  })
  it('refuses buying a lower tier while a higher one runs, and allows it once expired', () => {
    expect(purchaseProblem(group(4, at(DAY)), 2, NOW)).toBe(VIP_MSG.lowerTier)
    expect(purchaseProblem(group(3, at(DAY)), 2, NOW)).toBe(VIP_MSG.lowerTier)
    expect(purchaseProblem(group(3, at(DAY)), 3, NOW)).toBeNull()
    expect(purchaseProblem(group(3, at(DAY)), 4, NOW)).toBeNull()
    expect(purchaseProblem(group(4, at(-1)), 2, NOW)).toBeNull()
    expect(purchaseProblem(group(1, at(DAY)), 2, NOW)).toBeNull()
  })
  it('lets a custom member renewing VIP 3 keep its own limits, even after expiry', () => {
    const custom = { marker_limit: 20000, join_limit: 200, file_size_limit: 4194304 }
    expect(applyPurchase(group(4, at(DAY), custom), 4, NOW)).toMatchObject(custom)
    expect(applyPurchase(group(4, at(-DAY), custom), 4, NOW)).toMatchObject(custom)
    expect(applyPurchase(group(4, at(DAY), { marker_limit: 0, join_limit: 0, file_size_limit: 0 }), 4, NOW)).toMatchObject(DEFAULT_GROUP_VIP)
  })
})

describe('reset to free (SPEC 4, 5)', () => {
  it('needs a remark: 请填写重置会员备注信息', () => {
    expect(VIP_MSG.resetRemarkRequired).toBe('请填写重置会员备注信息')
    expect(MSG.resetRemarkRequired).toBe('请填写重置会员备注信息')
    expect(checkResetRemark('')).toBe('请填写重置会员备注信息')
    expect(checkResetRemark('   ')).toBe('请填写重置会员备注信息')
    expect(checkResetRemark(undefined)).toBe('请填写重置会员备注信息')
    expect(checkResetRemark('不再续费')).toBeNull()
    expect(checkResetRemark('字'.repeat(201))).toBe(VIP_MSG.fieldTooLong('备注', 200))
  })
  it('is for the administrator of an expired membership only', () => {
    expect(resetProblem(group(2, at(-1)), true, NOW)).toBeNull()
    expect(resetProblem(group(1, at(-1)), true, NOW)).toBeNull()
    expect(resetProblem(group(2, at(-1)), false, NOW)).toBe(VIP_MSG.adminOnly)
    expect(resetProblem(group(2, at(DAY)), true, NOW)).toBe(VIP_MSG.notExpired)
    expect(resetProblem(freePlan(), true, NOW)).toBe(VIP_MSG.alreadyFree)
  })
  it('hides all but the latest 20 records', () => {
    const ids = Array.from({ length: 25 }, (_, i) => i + 1)
    expect(markersToHide(ids)).toEqual([5, 4, 3, 2, 1])
    expect(markersToHide(ids.slice(0, 20))).toEqual([])
    expect(markersToHide([])).toEqual([])
    expect(markersToHide([30, 2, 17], 1)).toEqual([17, 2])
  })
  it('brings hidden markers back within 3 months of the expiry', () => {
    const expired = '2025-06-01T02:00:00.000Z'
    expect(restoreUntil(expired).toISOString()).toBe('2025-09-01T02:00:00.000Z')
    expect(canRestoreHidden(expired, new Date('2025-09-01T02:00:00.000Z'))).toBe(true)
    expect(canRestoreHidden(expired, new Date('2025-09-01T02:00:00.001Z'))).toBe(false)
    expect(canRestoreHidden(expired, new Date('2025-07-15T00:00:00.000Z'))).toBe(true)
  })
})

describe('products and prices (SPEC 3)', () => {
  it('has three products, one per tier VIP 1-3, 8800, 29800, 59800 fen, one year each', () => {
    expect(VIP_PRODUCTS.map((p) => [p.id, p.level, p.price, p.months])).toEqual([
      [1, 2, 8800, 12],
      [2, 3, 29800, 12],
      [3, 4, 59800, 12],
    ])
    expect(VIP_PRODUCTS.map((p) => p.name)).toEqual(['VIP 1', 'VIP 2', 'VIP 3'])
    expect(productById(3)).toMatchObject({ marker_limit: 5000, join_limit: 50, file_size_limit: 2097152 })
    expect(productById(4)).toBeUndefined()
    expect(productById(0)).toBeUndefined()
  })
  it('prices without a discount at the list price', () => {
    expect(priceProduct(VIP_PRODUCTS[0])).toEqual({ product_id: 1, price: 8800, discount_amount: 0, amount: 8800 })
  })
  it('takes an amount off in fen', () => {
    expect(priceProduct(VIP_PRODUCTS[1], { kind: 'amount', value: 5000 })).toEqual({ product_id: 2, price: 29800, discount_amount: 5000, amount: 24800 })
  })
  it('applies a rate as the per cent paid, rounding the payable part down', () => {
    expect(priceProduct(VIP_PRODUCTS[0], { kind: 'rate', value: 85 })).toEqual({ product_id: 1, price: 8800, discount_amount: 1320, amount: 7480 })
    expect(priceProduct({ id: 1, price: 999 }, { kind: 'rate', value: 85 }).amount).toBe(849) // 849.15
    expect(priceProduct(VIP_PRODUCTS[2], { kind: 'rate', value: 100 }).amount).toBe(59800)
  })
  it('never charges less than 1 fen', () => {
    expect(discountAmount(8800, { kind: 'amount', value: 10000 })).toBe(8799)
    expect(priceProduct(VIP_PRODUCTS[0], { kind: 'rate', value: 0 }).amount).toBe(1)
    expect(discountAmount(8800, { kind: 'amount', value: -5 })).toBe(0)
  })
  it('shows fen as yuan and discounts as text', () => {
    expect(formatFen(8800)).toBe('88.00')
    expect(formatFen(29805)).toBe('298.05')
    expect(formatFen(1)).toBe('0.01')
    expect(describeDiscount({ kind: 'amount', value: 1000 })).toBe('立减10.00元')
    expect(describeDiscount({ kind: 'rate', value: 85 })).toBe('8.5折')
    expect(describeDiscount({ kind: 'rate', value: 80 })).toBe('8折')
  })
})

describe('discount rules', () => {
  const rule: DiscountRule = { kind: 'amount', value: 1000, product_ids: [], starts_on: '2025-06-01', ends_on: '2025-06-30', max_uses: 10, used_count: 0 }
  it('works inclusively between its first and last Shanghai days', () => {
    expect(discountProblem(rule, '2025-06-01', null)).toBeNull()
    expect(discountProblem(rule, '2025-06-30', null)).toBeNull()
    expect(discountProblem(rule, '2025-05-31', null)).toBe(VIP_MSG.discountNotStarted)
    expect(discountProblem(rule, '2025-07-01', null)).toBe(VIP_MSG.discountExpired)
    expect(discountProblem({ ...rule, starts_on: null, ends_on: null }, '2030-01-01', null)).toBeNull()
  })
  it('is refused when unknown, used up, or used by the group already', () => {
    expect(discountProblem(null, '2025-06-01', null)).toBe(VIP_MSG.discountInvalid)
    expect(discountProblem({ ...rule, used_count: 10 }, '2025-06-01', null)).toBe(VIP_MSG.discountUsedUp)
    expect(discountProblem({ ...rule, max_uses: 0, used_count: 999 }, '2025-06-01', null)).toBeNull()
    expect(discountProblem(rule, '2025-06-01', 'paid')).toBe(VIP_MSG.discountUsed)
    expect(discountProblem(rule, '2025-06-01', 'waiting')).toBe(VIP_MSG.discountPending)
  })
  it('is refused while waiting orders hold every use left, and not counted for an uncapped code', () => {
    expect(discountProblem({ ...rule, used_count: 7, held_count: 2 }, '2025-06-01', null)).toBeNull()
    expect(discountProblem({ ...rule, used_count: 7, held_count: 3 }, '2025-06-01', null)).toBe(VIP_MSG.discountReserved)
    expect(discountProblem({ ...rule, max_uses: 0, held_count: 50 }, '2025-06-01', null)).toBeNull()
  })
  it('applies to its products only, or to all when it lists none', () => {
    expect(discountProblem({ ...rule, product_ids: [2, 3] }, '2025-06-01', null, 1)).toBe(VIP_MSG.discountNotForProduct)
    expect(discountProblem({ ...rule, product_ids: [2, 3] }, '2025-06-01', null, 3)).toBeNull()
    expect(discountProblem(rule, '2025-06-01', null, 1)).toBeNull()
  })
  it('matches codes without case or spaces', () => {
    expect(normalizeDiscountCode('  summer25 ')).toBe('SUMMER25')
  })
})

describe('orders', () => {
  it('reads a waiting order past its pay window as closed', () => {
    expect(orderStatusAt({ status: 0, expires_at: at(1) }, NOW)).toBe(0)
    expect(orderStatusAt({ status: 0, expires_at: at(0) }, NOW)).toBe(3)
    expect(orderStatusAt({ status: 1, expires_at: at(-DAY) }, NOW)).toBe(1)
    expect(orderStatusAt({ status: 2, expires_at: at(-DAY) }, NOW)).toBe(2)
  })
})

describe('questionnaire (SPEC 5)', () => {
  const filled: VerifyForm = { name: '测绘公司', business_type: '测绘', size: 2, contacts: '王工', post: '', qa1: '巡检', qa2: '', qa3: '更多图层' }
  it('accepts a filled form with job title and answer 2 empty', () => {
    expect(checkVerifyForm(filled)).toBeNull()
  })
  it.each<[Partial<VerifyForm>, string]>([
    [{ name: '' }, '请输入企业名称'],
    [{ name: '   ' }, '请输入企业名称'],
    [{ business_type: '' }, '请输入您的行业或工作性质'],
    [{ size: null }, '请输入企业规模'],
    [{ size: 7 }, '请输入企业规模'],
    [{ size: -1 }, '请输入企业规模'],
    [{ size: 1.5 }, '请输入企业规模'],
    [{ contacts: '' }, '请输入您的称呼'],
    [{ qa1: ' ' }, '请输入 问卷1 回答'],
    [{ qa3: '' }, '请输入 问卷3 回答'],
  ])('refuses %j with its SPEC message', (patch, message) => {
    expect(checkVerifyForm({ ...filled, ...patch })).toBe(message)
  })
  it("checks in the form's order: the first problem is reported", () => {
    expect(checkVerifyForm(emptyVerifyForm())).toBe('请输入企业名称')
    expect(checkVerifyForm({ ...emptyVerifyForm(), name: 'a' })).toBe('请输入您的行业或工作性质')
    expect(checkVerifyForm({ ...filled, size: null, contacts: '' })).toBe('请输入企业规模')
    expect(checkVerifyForm({ ...filled, qa1: '', qa3: '' })).toBe('请输入 问卷1 回答')
  })
  it('accepts every size option, values 0-6', () => {
    expect(COMPANY_SIZE_OPTIONS).toEqual(['10人以下', '10-20人', '20-50人', '50-100人', '100-200人', '200-500人', '500人以上'])
    for (let size = 0; size <= 6; size++) expect(checkVerifyForm({ ...filled, size })).toBeNull()
  })
  it('limits lengths', () => {
    expect(checkVerifyForm({ ...filled, name: '字'.repeat(51) })).toBe(VIP_MSG.fieldTooLong('企业名称', 50))
    expect(checkVerifyForm({ ...filled, post: '字'.repeat(51) })).toBe(VIP_MSG.fieldTooLong('职位', 50))
    expect(checkVerifyForm({ ...filled, qa2: '字'.repeat(501) })).toBe(VIP_MSG.fieldTooLong('问卷2 回答', 500))
  })
  it('validates the wire shape the same way (qa is the three answers in order)', () => {
    expect(checkEnterprise({ ...toEnterprise(filled) })).toBeNull()
    expect(checkEnterprise({ ...toEnterprise(filled), qa: ['a', 'b'] })).toBe('请输入 问卷3 回答')
    expect(checkEnterprise({})).toBe('请输入企业名称')
  })
  it('trims into the request body and back into the form', () => {
    const body = toEnterprise({ ...filled, name: ' 测绘公司 ', qa2: ' 无 ' })
    expect(body).toEqual({ name: '测绘公司', business_type: '测绘', size: 2, contacts: '王工', post: '', qa: ['巡检', '无', '更多图层'] })
    expect(verifyFormOf(body)).toEqual({ ...filled, qa2: '无' })
    expect(verifyFormOf(null)).toEqual(emptyVerifyForm())
  })
})

describe('canBuyMembership', () => {
  it('should refuse buying in the mini-program on iOS only (WeChat forbids virtual goods there)', () => {
    expect(canBuyMembership('weapp', 'ios')).toBe(false)
    expect(canBuyMembership('weapp', 'iOS')).toBe(false)
    expect(canBuyMembership('weapp', 'android')).toBe(true)
    expect(canBuyMembership('weapp', 'ohos')).toBe(true)
    expect(canBuyMembership('weapp', 'windows')).toBe(true)
    expect(canBuyMembership('h5', 'ios')).toBe(true)
  })
})
