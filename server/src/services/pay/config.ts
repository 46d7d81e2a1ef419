/**
 * Merchant credentials of WeChat Pay from the environment. None set: the local sandbox provider
 * (payments complete on this machine through /api/pay/sandbox/complete). Some but not all set: a
 * start-up error naming what is missing, rather than a server that silently takes no money.
 *
 * WXPAY_MCHID            merchant id
 * WXPAY_APPID            the mini-program's appid the merchant is bound to
 * WXPAY_SERIAL           serial number of the merchant API certificate
 * WXPAY_PRIVATE_KEY(_FILE)   merchant API private key (PEM, apiclient_key.pem)
 * WXPAY_APIV3_KEY        the 32-character APIv3 key (decrypts notifications)
 * WXPAY_PLATFORM_CERT(_FILE) WeChat Pay platform certificate (PEM), or the WeChat Pay public key
 *                        (PEM) together with WXPAY_PLATFORM_SERIAL (its id, PUB_KEY_ID_...)
 * WXPAY_NOTIFY_URL       the public https address of POST /api/pay/wxpay/notify
 * WXPAY_BASE             API host, https://api.mch.weixin.qq.com by default
 * WX_APPSECRET, WX_API_BASE  exchange of wx.login codes for openids (jscode2session); optional
 */
import { createPrivateKey, createPublicKey, X509Certificate } from 'node:crypto'
import { readFileSync } from 'node:fs'
import type { PlatformKey } from './wechat-v3'

export interface WechatPayConfig {
  mchid: string
  appid: string
  serial: string
  privateKey: ReturnType<typeof createPrivateKey>
  apiV3Key: string
  platformKeys: PlatformKey[]
  notifyUrl: string
  base: string
  appSecret: string | null
  wxApiBase: string
}

export const DEFAULT_WXPAY_BASE = 'https://api.mch.weixin.qq.com'
export const DEFAULT_WX_API_BASE = 'https://api.weixin.qq.com'

/** Env values may carry PEM line breaks as literal \n (one-line secrets). */
function pem(text: string): string {
  return text.includes('\\n') ? text.replace(/\\n/g, '\n') : text
}

function valueOrFile(env: NodeJS.ProcessEnv, name: string): string | undefined {
  if (env[name]) return pem(env[name] as string)
  const file = env[`${name}_FILE`]
  return file ? readFileSync(file, 'utf8') : undefined
}

/** The platform key from a certificate (its own serial) or a public key (serial given). */
export function platformKeyOf(text: string, serial: string | undefined): PlatformKey {
  if (text.includes('BEGIN CERTIFICATE')) {
    const cert = new X509Certificate(text)
    return { serial: serial || cert.serialNumber.toUpperCase(), publicKey: cert.publicKey }
  }
  if (!serial) throw new Error('WXPAY_PLATFORM_SERIAL is needed with a WeChat Pay public key (its id, PUB_KEY_ID_...)')
  return { serial, publicKey: createPublicKey(text) }
}

export function readWechatPayConfig(env: NodeJS.ProcessEnv): WechatPayConfig | null {
  const values = {
    WXPAY_MCHID: env.WXPAY_MCHID,
    WXPAY_APPID: env.WXPAY_APPID,
    WXPAY_SERIAL: env.WXPAY_SERIAL,
    WXPAY_PRIVATE_KEY: valueOrFile(env, 'WXPAY_PRIVATE_KEY'),
    WXPAY_APIV3_KEY: env.WXPAY_APIV3_KEY,
    WXPAY_PLATFORM_CERT: valueOrFile(env, 'WXPAY_PLATFORM_CERT'),
    WXPAY_NOTIFY_URL: env.WXPAY_NOTIFY_URL,
  }
  const missing = Object.entries(values)
    .filter(([, v]) => !v)
    .map(([k]) => k)
  if (missing.length === Object.keys(values).length) return null
  if (missing.length > 0) throw new Error(`WeChat Pay is half configured: set ${missing.join(', ')} (or none of the WXPAY_* variables for the local sandbox)`)
  const apiV3Key = values.WXPAY_APIV3_KEY as string
  if (Buffer.byteLength(apiV3Key, 'utf8') !== 32) throw new Error('WXPAY_APIV3_KEY must be 32 characters')
  return {
    mchid: values.WXPAY_MCHID as string,
    appid: values.WXPAY_APPID as string,
    serial: (values.WXPAY_SERIAL as string).toUpperCase(),
    privateKey: createPrivateKey(values.WXPAY_PRIVATE_KEY as string),
    apiV3Key,
    platformKeys: [platformKeyOf(values.WXPAY_PLATFORM_CERT as string, env.WXPAY_PLATFORM_SERIAL)],
    notifyUrl: values.WXPAY_NOTIFY_URL as string,
    base: (env.WXPAY_BASE || DEFAULT_WXPAY_BASE).replace(/\/+$/, ''),
    appSecret: env.WX_APPSECRET || null,
    wxApiBase: (env.WX_API_BASE || DEFAULT_WX_API_BASE).replace(/\/+$/, ''),
  }
}
