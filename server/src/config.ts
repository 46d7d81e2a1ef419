/** Server settings from the environment, with the defaults of a zero-set-up local run. */
import { join, resolve } from 'node:path'
import { SMS_RESEND_COOLDOWN_S } from '../../src/domain/constants'
import { checkServicePhone, checkServiceUrl } from '../../src/domain/systemConfig'
import type { DatabaseOptions } from './db/connection'
import { DEFAULT_CODE_CAPS, type CodeCaps } from './services/public-limits'

export interface ServerConfig {
  port: number
  host: string
  database: DatabaseOptions
  staticDir: string
  /** DATA_DIR: the SQLite file and the uploads folder live here. */
  dataDir: string
  codeCooldownS: number
  /** SHARE_SECRET: signs share password proofs; unset, a random secret kept in the database is used. */
  shareSecret?: string
  /** ADMIN_TOKEN: the operator's credential (services/operator.ts); unset or shorter than ADMIN_TOKEN_MIN, operator calls are off. */
  adminToken?: string
  /**
   * TRUST_PROXY: behind a load balancer, the client's address comes from X-Forwarded-For (rate
   * limits key on it). 'true' trusts every hop; otherwise a comma-separated list of the balancers'
   * addresses or CIDRs (safer: a client cannot forge its address past them). Unset: the connecting
   * address is the client.
   */
  trustProxy?: boolean | string
  /** CARD_FONT: a CJK font file (.ttf/.ttc/.otf) for the text of share card pictures; unset, a known system path (services/share-card.ts). */
  cardFont?: string
  /** SMS_HOURLY_CAP_PER_ADDRESS / SMS_HOURLY_CAP: codes one client address, and the whole server, may send in an hour. */
  codeCaps: CodeCaps
  /**
   * WEB_FRAME_HOSTS: the hosts whose pages /web may frame, as CSP sources (comma-separated, `*.` for
   * subdomains, https unless an http:// scheme is written); unset, /web frames this server's own pages
   * only and offers to open others in the browser.
   */
  webFrameHosts: string[]
  /** HSTS_MAX_AGE: seconds of Strict-Transport-Security on answers to HTTPS requests (behind TLS); unset, none. */
  hstsMaxAge?: number
  /** Settings that were set but could not be used, each a sentence for the log. */
  ignored: string[]
}

/** An operator token shorter than this is too easy to guess and is not used. */
export const ADMIN_TOKEN_MIN = 16

export function readServerConfig(env: NodeJS.ProcessEnv): ServerConfig {
  const dataDir = resolve(env.DATA_DIR || './data')
  const frames = webFrameHostsOf(env.WEB_FRAME_HOSTS)
  const hsts = hstsOf(env.HSTS_MAX_AGE)
  return {
    port: Number(env.PORT || 8080),
    host: env.HOST || '127.0.0.1',
    database: env.DATABASE_URL ? { kind: 'postgres', url: env.DATABASE_URL } : { kind: 'sqlite', file: join(dataDir, 'teammap.db') },
    staticDir: resolve(env.STATIC_DIR || 'dist/h5'),
    dataDir,
    codeCooldownS: positiveInt(env.SMS_RESEND_COOLDOWN_S, SMS_RESEND_COOLDOWN_S),
    shareSecret: env.SHARE_SECRET || undefined,
    adminToken: env.ADMIN_TOKEN && env.ADMIN_TOKEN.length >= ADMIN_TOKEN_MIN ? env.ADMIN_TOKEN : undefined,
    trustProxy: trustProxyOf(env.TRUST_PROXY),
    cardFont: env.CARD_FONT?.trim() || undefined,
    codeCaps: {
      perAddressPerHour: positiveInt(env.SMS_HOURLY_CAP_PER_ADDRESS, DEFAULT_CODE_CAPS.perAddressPerHour),
      allPerHour: positiveInt(env.SMS_HOURLY_CAP, DEFAULT_CODE_CAPS.allPerHour),
    },
    webFrameHosts: frames.hosts,
    hstsMaxAge: hsts.maxAge,
    ignored: [...frames.ignored, ...hsts.ignored],
  }
}

/** A host as a CSP source names it: an optional http(s) scheme (https when left out), an optional `*.` first label, an optional port (`:*` any). */
const FRAME_HOST = /^(https?:\/\/)?(\*\.)?[a-z0-9-]+(\.[a-z0-9-]+)*(:(\d{1,5}|\*))?$/

function webFrameHostsOf(value: string | undefined): { hosts: string[]; ignored: string[] } {
  const hosts: string[] = []
  const ignored: string[] = []
  for (const raw of (value ?? '').split(',')) {
    const host = raw.trim().toLowerCase().replace(/\/$/, '')
    if (!host) continue
    if (FRAME_HOST.test(host)) hosts.push(/^https?:\/\//.test(host) ? host : `https://${host}`)
    else ignored.push(`WEB_FRAME_HOSTS: ${raw.trim()} ignored (a host such as docs.example.com, *.example.com or http://intranet.example.com:8080)`)
  }
  return { hosts: [...new Set(hosts)], ignored }
}

function hstsOf(value: string | undefined): { maxAge?: number; ignored: string[] } {
  const text = value?.trim()
  if (!text || text === '0') return { ignored: [] }
  const n = Number(text)
  return Number.isInteger(n) && n > 0 ? { maxAge: n, ignored: [] } : { ignored: [`HSTS_MAX_AGE=${text} ignored (whole seconds, e.g. 31536000 for a year)`] }
}

function trustProxyOf(value: string | undefined): ServerConfig['trustProxy'] {
  const v = value?.trim()
  if (!v || v === 'false') return undefined
  return v === 'true' ? true : v
}

/**
 * SERVICE_PHONE / SERVICE_URL, stored at start when set (the operator can also change them with
 * /api/system/save/config; a restart with these set stores them again). A value that breaks the
 * rules of that call is left out, with a warning to log.
 */
export function serviceContactFromEnv(env: NodeJS.ProcessEnv): { contact: { phone?: string; url?: string }; ignored: string[] } {
  const contact: { phone?: string; url?: string } = {}
  const ignored: string[] = []
  const phone = env.SERVICE_PHONE?.trim()
  const url = env.SERVICE_URL?.trim()
  if (phone !== undefined) {
    if (checkServicePhone(phone)) ignored.push('SERVICE_PHONE ignored: digits and dashes only, e.g. 400-800-1234')
    else contact.phone = phone
  }
  if (url !== undefined) {
    if (checkServiceUrl(url)) ignored.push('SERVICE_URL ignored: an https:// address only')
    else contact.url = url
  }
  return { contact, ignored }
}

function positiveInt(value: string | undefined, fallback: number): number {
  const n = Number(value)
  return Number.isInteger(n) && n > 0 ? n : fallback
}
