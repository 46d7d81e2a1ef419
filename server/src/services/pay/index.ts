/** Payments: the provider chosen from the environment. */
import { readWechatPayConfig } from './config'
import { SandboxPay, type PayProvider } from './provider'
import { WechatPay } from './wechat'

export type { PayProvider } from './provider'

/** WeChat Pay when the WXPAY_* variables are set, else the local sandbox. */
export function payProviderFromEnv(env: NodeJS.ProcessEnv): PayProvider {
  const config = readWechatPayConfig(env)
  return config ? new WechatPay(config) : new SandboxPay()
}
