/**
 * WeChat Pay API v3, the cryptographic parts (node:crypto only): the merchant's request signature
 * (Authorization: WECHATPAY2-SHA256-RSA2048), the signature of the parameters wx.requestPayment
 * takes, the platform's signature on responses and notifications (RSA-SHA256 over
 * "timestamp\nnonce\nbody\n"), and the AEAD_AES_256_GCM resource of a notification, decrypted with
 * the APIv3 key. Pure functions of their inputs; the HTTP client is wechat.ts.
 */
import { createCipheriv, createDecipheriv, createSign, createVerify, randomBytes, type KeyObject } from 'node:crypto'
import type { WxPayParams } from '../../../../types/vip'

export const AUTH_SCHEMA = 'WECHATPAY2-SHA256-RSA2048'

/** 32 random characters [0-9A-Z] (nonce_str / nonceStr). */
export function nonceStr(): string {
  return randomBytes(16).toString('hex').toUpperCase()
}

/** Base64 RSA-SHA256 (PKCS#1 v1.5) signature with the merchant's private key. */
export function rsaSign(privateKey: KeyObject, message: string): string {
  return createSign('RSA-SHA256').update(message, 'utf8').sign(privateKey, 'base64')
}

export function rsaVerify(publicKey: KeyObject, message: string, signature: string): boolean {
  try {
    return createVerify('RSA-SHA256').update(message, 'utf8').verify(publicKey, signature, 'base64')
  } catch {
    return false
  }
}

/** The string a request signature covers: method, path with query, timestamp, nonce, body, each line-terminated. */
export function requestMessage(method: string, pathWithQuery: string, timestamp: string, nonce: string, body: string): string {
  return `${method.toUpperCase()}\n${pathWithQuery}\n${timestamp}\n${nonce}\n${body}\n`
}

export interface MerchantKey {
  mchid: string
  /** Serial number of the merchant API certificate. */
  serial: string
  privateKey: KeyObject
}

/** The Authorization header of a v3 request. */
export function authorization(merchant: MerchantKey, method: string, pathWithQuery: string, body: string, timestamp: string, nonce: string): string {
  const signature = rsaSign(merchant.privateKey, requestMessage(method, pathWithQuery, timestamp, nonce, body))
  return `${AUTH_SCHEMA} mchid="${merchant.mchid}",nonce_str="${nonce}",signature="${signature}",timestamp="${timestamp}",serial_no="${merchant.serial}"`
}

/** The fields of an Authorization header (a fake WeChat Pay server checks them). */
export function parseAuthorization(header: string): Record<string, string> | null {
  if (!header.startsWith(`${AUTH_SCHEMA} `)) return null
  const fields: Record<string, string> = {}
  for (const match of header.slice(AUTH_SCHEMA.length + 1).matchAll(/(\w+)="([^"]*)"/g)) fields[match[1]] = match[2]
  return fields
}

/** The string the platform signs on a response or a notification. */
export function responseMessage(timestamp: string, nonce: string, body: string): string {
  return `${timestamp}\n${nonce}\n${body}\n`
}

/** The parameters of wx.requestPayment for a prepay id, signed with the merchant key (signType RSA). */
export function requestPaymentParams(appId: string, prepayId: string, privateKey: KeyObject, timeStamp: string, nonce: string): WxPayParams {
  const pkg = `prepay_id=${prepayId}`
  return { appId, timeStamp, nonceStr: nonce, package: pkg, signType: 'RSA', paySign: rsaSign(privateKey, `${appId}\n${timeStamp}\n${nonce}\n${pkg}\n`) }
}

/** A platform key the responses and notifications are checked with, by its serial (certificate serial or public key id). */
export interface PlatformKey {
  serial: string
  publicKey: KeyObject
}

/** The signature headers of a response or notification (names in lower case, as node gives them). */
export interface SignedHeaders {
  'wechatpay-timestamp'?: string
  'wechatpay-nonce'?: string
  'wechatpay-signature'?: string
  'wechatpay-serial'?: string
}

/** Notifications older or newer than this are refused (replays). */
export const NOTIFY_MAX_SKEW_S = 300

/**
 * Why the platform signature of a body does not hold (or null): all four headers present, the
 * timestamp within NOTIFY_MAX_SKEW_S of now, the serial one of ours, the signature valid.
 */
export function platformSignatureProblem(keys: readonly PlatformKey[], headers: SignedHeaders, body: string, now: Date): string | null {
  const timestamp = headers['wechatpay-timestamp']
  const nonce = headers['wechatpay-nonce']
  const signature = headers['wechatpay-signature']
  const serial = headers['wechatpay-serial']
  if (!timestamp || !nonce || !signature || !serial) return 'signature headers missing'
  if (!/^\d+$/.test(timestamp) || Math.abs(now.getTime() / 1000 - Number(timestamp)) > NOTIFY_MAX_SKEW_S) return 'timestamp out of range'
  const key = keys.find((k) => k.serial.toUpperCase() === serial.toUpperCase())
  if (!key) return `unknown platform serial ${serial}`
  if (!rsaVerify(key.publicKey, responseMessage(timestamp, nonce, body), signature)) return 'bad signature'
  return null
}

/** The encrypted resource of a notification. */
export interface EncryptedResource {
  algorithm: string
  ciphertext: string
  associated_data?: string
  nonce: string
  original_type?: string
}

const TAG_BYTES = 16

/** AEAD_AES_256_GCM with the APIv3 key (32 bytes): the ciphertext is base64 of encrypted bytes then the 16-byte tag. */
export function decryptResource(apiV3Key: string, resource: EncryptedResource): string {
  if (resource.algorithm !== 'AEAD_AES_256_GCM') throw new Error(`unsupported algorithm ${resource.algorithm}`)
  const data = Buffer.from(resource.ciphertext, 'base64')
  if (data.length <= TAG_BYTES) throw new Error('ciphertext too short')
  const decipher = createDecipheriv('aes-256-gcm', Buffer.from(apiV3Key, 'utf8'), Buffer.from(resource.nonce, 'utf8'))
  decipher.setAuthTag(data.subarray(data.length - TAG_BYTES))
  decipher.setAAD(Buffer.from(resource.associated_data ?? '', 'utf8'))
  return Buffer.concat([decipher.update(data.subarray(0, data.length - TAG_BYTES)), decipher.final()]).toString('utf8')
}

/** The inverse of decryptResource (what WeChat Pay does; tests and a fake server use it). */
export function encryptResource(apiV3Key: string, plaintext: string, associatedData: string, nonce: string = randomBytes(6).toString('hex')): EncryptedResource {
  const cipher = createCipheriv('aes-256-gcm', Buffer.from(apiV3Key, 'utf8'), Buffer.from(nonce, 'utf8'))
  cipher.setAAD(Buffer.from(associatedData, 'utf8'))
  const encrypted = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final(), cipher.getAuthTag()])
  return { algorithm: 'AEAD_AES_256_GCM', ciphertext: encrypted.toString('base64'), associated_data: associatedData, nonce, original_type: 'transaction' }
}

/** RFC 3339 in Asia/Shanghai, as WeChat Pay writes times: 2025-06-01T12:00:00+08:00. */
export function shanghaiRfc3339(at: Date): string {
  return `${new Date(at.getTime() + 8 * 3600_000).toISOString().slice(0, 19)}+08:00`
}
