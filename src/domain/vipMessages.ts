/**
 * Membership and payment messages. Apart from messages.ts so that only the pages that
 * speak of membership load them: a module's used strings all travel in the chunk that holds it.
 * SPEC 5's questionnaire messages exactly, and ours where the SPEC is silent.
 */
import { MSG } from './messages'

export const VIP_MSG = {
  // SPEC 5 questionnaire
  companyRequired: '请输入企业名称',
  industryRequired: '请输入您的行业或工作性质',
  sizeRequired: '请输入企业规模',
  contactsRequired: '请输入您的称呼',
  answer1Required: '请输入 问卷1 回答',
  answer3Required: '请输入 问卷3 回答',
  // SPEC 5 reset to free
  resetRemarkRequired: MSG.resetRemarkRequired,
  fieldTooLong: (label: string, max: number): string => `${label}最多${max}个字`,
  verifyOk: '提交成功',
  verifyBonus: (days: number): string => `提交成功，已为您增加${days}天试用期`,
  // Expiry (SPEC 4)
  reminder: (days: number): string => `您的团队会员将在${days}天后到期，请及时续费`,
  expiredAdmin: '您的团队会员已过期，请续费或重置为免费版',
  expiredMember: '团队会员已过期，请联系团队管理员续费，或切换到您自己的地图',
  expiredMarkerLimit: (limit: number): string => `团队会员已过期，免费版最多${limit}条标注，请续费后继续添加`,
  expiredJoinLimit: '团队会员已过期，免费版不能添加协作成员，请续费后继续邀请',
  expiredStorage: '团队会员已过期，存储空间超出免费版额度，请续费后继续上传',
  // Reset to free
  adminOnly: '只有团队管理员可以操作会员',
  notExpired: '团队会员尚未过期，无需重置为免费版',
  alreadyFree: '当前已是免费版',
  resetConfirm: '重置为免费版后将移除所有协作成员，只保留最新的20条标注，其余标注将被隐藏（3个月内续费可恢复）。确定重置吗？',
  resetOk: '已重置为免费版',
  // Products, discounts, orders
  productRequired: '请选择会员套餐',
  lowerTier: '当前会员等级更高，不能购买较低等级的会员',
  discountCodeRequired: '请输入优惠码',
  discountInvalid: '优惠码无效',
  discountNotStarted: '优惠码尚未生效',
  discountExpired: '优惠码已过期',
  discountUsedUp: '优惠码已被领完',
  discountUsed: '您的团队已使用过该优惠码',
  discountPending: '您的团队已有使用该优惠码的待支付订单，请先支付或取消该订单',
  discountReserved: '优惠码名额已被待支付订单占满，请稍后再试',
  discountNotForProduct: '该优惠码不适用于所选会员套餐',
  orderNotFound: '订单不存在',
  orderNotPending: '订单已支付或已取消',
  orderClosed: '订单已超时关闭，请重新下单',
  orderCancelled: '订单已取消',
  // Payment
  payUserMissing: '无法获取微信支付用户信息，请在微信小程序中支付',
  payCreateFailed: '微信支付下单失败，请稍后再试',
  // The server has no merchant credentials and no sandbox (an H5-only deployment).
  payUnavailable: '在线支付暂未开通，请联系客服',
  payOk: '支付成功，会员权益即将生效',
  iapUnavailable: '暂不支持苹果支付',
  // Client (screens)
  payCancelled: '已取消支付，订单可在「我的订单」中继续支付',
  payFailed: '支付失败，请稍后再试',
  payWebUnavailable: '当前环境不支持微信支付，请在微信小程序或团队地图App中支付',
  payPending: '支付结果确认中，请稍后在「我的订单」中查看',
  payArrived: (level: string): string => `会员已生效：${level}`,
  /** The local sandbox's confirmation: what is paid, nothing about the server's set-up (the server logs that). */
  sandboxPayTitle: '模拟支付',
  sandboxPayContent: (product: string, yuan: string): string => `${product}，¥${yuan}`,
  orderCancelOk: '订单已取消',
  buyAdminOnly: '只有团队管理员可以购买会员',
  discountOk: '优惠码可用',
  trialWelcomeTitle: '欢迎试用团队地图',
  trialWelcome: (days: number): string => `您已获得${days}天试用会员：300条标注、5位协作成员、300M存储空间。填写问卷可再延长30天试用期。`,
  reminderTitle: '会员即将到期',
  expiredTitle: '会员已过期',
  resetTitle: '重置为免费版',
  resetRemarkPlaceholder: '请填写重置会员备注信息',
  verifyTitle: '填写问卷',
  serviceTitle: '联系客服',
  serviceNone: '客服联系方式尚未配置，请联系您的团队管理员',
} as const

/** SPEC 5: company size options, values 0-6. */
export const COMPANY_SIZE_OPTIONS = ['10人以下', '10-20人', '20-50人', '50-100人', '100-200人', '200-500人', '500人以上'] as const

/** Order states as shown in /order (types/vip OrderStatus 0-3). */
export const ORDER_STATUS_TEXT = ['待支付', '已支付', '已取消', '已关闭'] as const
