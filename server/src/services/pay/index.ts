/** Payments: the provider chosen from the environment. */
import { readWechatPayConfig } from './config'
import { NoPay, SandboxPay, type PayProvider } from './provider'
import { WechatPay } from './wechat'

export type { PayProvider } from './provider'

/** A payment setting the server must not start with; main.ts prints its sentence. */
export class PayConfigError extends Error {}

/**
 * WeChat Pay when the WXPAY_* variables are set; the local sandbox only when PAY_SANDBOX=1 (and
 * never under NODE_ENV=production, where it would give memberships away); else no payments.
 */
export function payProviderFromEnv(env: NodeJS.ProcessEnv): PayProvider {
  const sandbox = env.PAY_SANDBOX?.trim() === '1'
  if (sandbox && env.NODE_ENV === 'production')
    throw new PayConfigError('PAY_SANDBOX=1 with NODE_ENV=production: the sandbox marks orders paid for free; unset PAY_SANDBOX (set WXPAY_* to take payments)')
  const config = readWechatPayConfig(env)
  if (config) {
    if (sandbox) throw new PayConfigError('PAY_SANDBOX=1 and WXPAY_* are both set: choose one')
    return new WechatPay(config)
  }
  return sandbox ? new SandboxPay() : new NoPay()
}

/** The start-up line naming the payment mode. */
export function payModeLine(pay: PayProvider): string {
  switch (pay.mode) {
    case 'wechat':
      return 'payments: WeChat Pay (WXPAY_*)'
    case 'sandbox':
      return 'payments: local sandbox (PAY_SANDBOX=1): /api/pay/sandbox/complete marks orders paid for free; never in production'
    default:
      return 'payments: off (no WXPAY_* settings, PAY_SANDBOX unset): memberships cannot be bought on this server'
  }
}
