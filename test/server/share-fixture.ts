/**
 * Builders for the share tests: a team (teams-fixture) with layers and markers, share
 * bodies with sensible defaults, and calls from a given client address (rate limits key on it).
 */
import type { FastifyInstance } from 'fastify'
import type { Envelope } from '../../types/api'
import type { Auth, CallResult } from './helpers'
import { makeWorld, ok, type TeamWorld } from './teams-fixture'

export { ok }

/** A share body for /api/share/save; fields given replace the defaults. */
export function shareBody(fields: Record<string, unknown> = {}): Record<string, unknown> {
  return { name: '测试分享', show_btn: 60, need_pwd: false, exp: null, data_ids: [], type: 1, ...fields }
}

/** A call as a client at `ip` (no session unless auth is given). */
export async function callFrom<T = any>(app: FastifyInstance, ip: string, path: string, fields: object, auth?: Auth): Promise<CallResult<T>> {
  const header = { userid: auth?.userid ?? '', groupid: '', token: auth?.token ?? '', device: 'app_h5', os: 'android' }
  const res = await app.inject({ method: 'POST', url: path, payload: { header, ...fields }, remoteAddress: ip })
  const body = res.json() as Envelope<T>
  return { status: res.statusCode, errcode: body.header.errcode, errmsg: body.header.errmsg, data: body.data as T, raw: res.body }
}

export interface ShareWorld extends TeamWorld {
  folder: number
  /** Point layers A and B (in the folder) and C (at the root), each with markers. */
  layers: { a: number; b: number; c: number }
  markers: { a: number[]; b: number[]; c: number[] }
  /** Saves a share as `auth` (the administrator by default) and returns its id; fails the test when refused. */
  share(fields: Record<string, unknown>, auth?: Auth): Promise<string>
}

export async function makeShareWorld(counts: { a?: number; b?: number; c?: number } = {}): Promise<ShareWorld> {
  const w = await makeWorld()
  const folder = await w.layer('文件夹', 0)
  const layers = { a: await w.layer('图层A', 1, folder), b: await w.layer('图层B', 1, folder), c: await w.layer('图层C', 1) }
  const markers = { a: [] as number[], b: [] as number[], c: [] as number[] }
  for (const key of ['a', 'b', 'c'] as const) {
    for (let i = 0; i < (counts[key] ?? 2); i++) markers[key].push(await w.marker(layers[key], `${key.toUpperCase()}${i + 1}`))
  }
  return {
    ...w,
    folder,
    layers,
    markers,
    async share(fields, auth = w.owner) {
      return ok(await w.call<string>('/api/share/save', shareBody(fields), auth))
    },
  }
}
