/**
 * The data list's budgets on SQLite (the server pages on PostgreSQL too, given BENCH_DATABASE_URL), in this process: the phone's filter + pinyin sort of 5,000 rows
 * (the shared domain rules, in Node: a phone at 4x CPU throttling takes about four times as long, so
 * the budget here is a quarter of the phone's 100 ms), a server page of a 100,000-marker layer with
 * a filter and a sort, and a bulk 设置字段 of 5,000 markers end to end with another client's calls
 * timed meanwhile (the chunks must let them in).
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import type { DataListRow } from '../types/datalist'
import { buildApp } from '../server/src/app'
import { startSession } from '../server/src/auth'
import { systemClock } from '../server/src/clock'
import { Client } from 'pg'
import { inTransaction, openDatabase, type Database } from '../server/src/db/connection'
import { insertField } from '../server/src/db/fields'
import { insertOwnedGroup } from '../server/src/db/groups'
import { addJoin } from '../server/src/db/joins'
import { insertLayer } from '../server/src/db/layers'
import { insertMarkers, searchTextOf, type NewMarker } from '../server/src/db/markers'
import { migrateToLatest } from '../server/src/db/migrations'
import { findOrCreateUserByPhone, selectGroupForUser } from '../server/src/db/users'
import { fieldsById, findRows } from '../src/domain/dataList'
import { defaultStyle, defaultWidth } from '../src/domain/markers'
import { emit } from './emit'

const BIG = 100_000
const BULK = 5000
const STATUSES = ['待拜访', '已拜访', '无效']
const CITIES = ['北京', '上海', '广州', '深圳', '重庆', '长沙', '成都', '杭州', '南京', '武汉']

const median = (v: number[]) => [...v].sort((a, b) => a - b)[v.length >> 1]
const round = (n: number) => Number(n.toFixed(1))

function phoneFilterSort(): void {
  const fields = fieldsById([
    { id: 1, name: '状态', kind: 'choice' },
    { id: 2, name: '金额', kind: 'number' },
  ])
  const rows: DataListRow[] = Array.from({ length: 5000 }, (_, i) => ({
    id: i + 1,
    layer_id: 1,
    name: `${CITIES[i % CITIES.length]}${['东', '西', '南', '北'][i % 4]}门店${i}`,
    type: 0,
    style: {},
    fields: { 1: STATUSES[i % 3], 2: (i * 37) % 1000 },
    rev: 1,
    notes_count: i % 4,
    editor_name: '小王',
    edited_at: new Date(1_700_000_000_000 + i * 60_000).toISOString(),
  }))
  const query = { kw: '门店', filters: [{ field_id: 1, op: 'in' as const, values: ['待拜访', '无效'] }], sort: { key: 'name' as const, dir: 'asc' as const } }
  const ms: number[] = []
  for (let run = 0; run < 9; run++) {
    const t0 = performance.now()
    findRows(rows, query, fields)
    ms.push(performance.now() - t0)
  }
  emit('datalist.phone_filter_sort_5000_node_ms', round(median(ms)), 'ms', 25)
}

/** A group with a 100,000-marker layer and a 5,000-marker one (状态 and 金额 on each), and the API over it. */
async function setUp(db: Database) {
  await migrateToLatest(db)
  const now = new Date().toISOString()
  const user = await findOrCreateUserByPhone(db.kysely, '13800138000', 'bench', now)
  const group = await insertOwnedGroup(db.kysely, { name: 'bench', owner_id: user.id, level: 4, vip_exp: null, marker_limit: BIG * 2, join_limit: 50, file_size_limit: 2097152, created_at: now })
  await addJoin(db.kysely, { group_id: group.id, user_id: user.id, is_manager: true, created_at: now })
  await selectGroupForUser(db.kysely, user.id, group.id, now)
  const layer = (name: string, sort: number) =>
    insertLayer(db.kysely, { group_id: group.id, parent_id: 0, name, type: 1, sort, is_default: 0, created_by: user.id, created_at: now, updated_at: now, deleted_at: null })
  const big = await layer('大图层', 0)
  const small = await layer('批量图层', 1)
  const fieldOf = async (layerId: number) => {
    const status = await insertField(db.kysely, { group_id: group.id, layer_id: layerId, name: '状态', kind: 'choice', options: STATUSES, required: false, sort: 1, at: now })
    const amount = await insertField(db.kysely, { group_id: group.id, layer_id: layerId, name: '金额', kind: 'number', options: [], required: false, sort: 2, at: now })
    return { status: status.id, amount: amount.id }
  }
  const bigFields = await fieldOf(big.id)
  const smallFields = await fieldOf(small.id)
  const style = JSON.stringify(defaultStyle(0))
  const rowsOf = (layerId: number, f: { status: number; amount: number }, n: number): NewMarker[] =>
    Array.from({ length: n }, (_, i) => {
      const name = `${CITIES[i % CITIES.length]}门店${i}`
      const fields = { [f.status]: STATUSES[i % 3], [f.amount]: (i * 37) % 1000 }
      const lng = 116 + (i % 1000) / 1000
      const lat = 39.5 + Math.floor(i / 1000) / 1000
      return {
        group_id: group.id,
        layer_id: layerId,
        name,
        type: 0,
        points: `${lng},${lat}`,
        style,
        width: defaultWidth(0),
        radius: 0,
        sort: 0,
        fields: JSON.stringify(fields),
        search_text: searchTextOf(name, fields),
        min_lng: lng,
        min_lat: lat,
        max_lng: lng,
        max_lat: lat,
        creator_id: user.id,
        created_at: now,
        updated_at: now,
        deleted_at: null,
        client_id: null,
      }
    })
  await inTransaction(db, async (trx) => {
    await insertMarkers(trx, rowsOf(big.id, bigFields, BIG))
    await insertMarkers(trx, rowsOf(small.id, smallFields, BULK))
  })

  const app = buildApp({ db, clock: systemClock, sms: { send: async () => undefined } })
  await app.ready()
  const header = { userid: user.id, groupid: group.id, token: await startSession(db.kysely, user.id, new Date()), device: 'app_bench', os: 'linux' }
  const post = async (url: string, fields: object) => {
    const res = await app.inject({ method: 'POST', url, payload: { ...fields, header } })
    const body = res.json() as { header: { errcode: number; errmsg: string }; data: any }
    if (res.statusCode !== 200 || body.header.errcode !== 0) throw new Error(`${url}: ${res.statusCode} ${body.header.errmsg}`)
    return body.data
  }

  return { app, post, big, bigFields, small, smallFields }
}

/** A filtered, pinyin-sorted page of the 100,000-marker layer, seven times over (pages 1 to 7): the first's time and the others' median. */
async function pageTimes(post: (url: string, fields: object) => Promise<any>, layerId: number, fields: { status: number; amount: number }): Promise<{ first: number; warm: number }> {
  const pageMs: number[] = []
  for (let run = 0; run < 7; run++) {
    const t0 = performance.now()
    const page = await post('/api/marker/datalist', {
      layer_id: layerId,
      query: {
        filters: [
          { field_id: fields.status, op: 'in', values: ['待拜访'] },
          { field_id: fields.amount, op: 'range', min: 100, max: 800 },
        ],
        sort: { key: 'name', dir: 'asc' },
      },
      pageindex: 1 + run,
      pagesize: 200,
    })
    pageMs.push(performance.now() - t0)
    if (page.total !== BIG || page.list.length !== 200) throw new Error('datalist bench: not a full page')
  }
  return { first: pageMs[0], warm: median(pageMs.slice(1)) }
}

export async function dataListBench(): Promise<void> {
  phoneFilterSort()
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-datalist-'))
  const db = openDatabase({ kind: 'sqlite', file: path.join(dir, 'db.sqlite') })
  try {
    const { app, post, small, smallFields, big, bigFields } = await setUp(db)
    const pages = await pageTimes(post, big.id, bigFields)
    // The first page works out every matched name's pinyin; the next pages (and re-sorts) find them kept.
    emit('datalist.server_first_page_100k_sqlite_ms', round(pages.first), 'ms', 300)
    emit('datalist.server_page_100k_sqlite_ms', round(pages.warm), 'ms', 300)

    // Another client's light call, again and again while the bulk action runs: how long it waits.
    const listed = await post('/api/marker/datalist', { layer_id: small.id, pagesize: 1 })
    let running = true
    const delays: number[] = []
    const other = (async () => {
      while (running) {
        const t0 = performance.now()
        await post('/api/layer/getlist', {})
        delays.push(performance.now() - t0)
        await new Promise((resolve) => setTimeout(resolve, 5))
      }
    })()
    const t0 = performance.now()
    const result = await post('/api/marker/bulk', { layer_id: small.id, action: 'set_field', field_id: smallFields.status, value: '已拜访', query: {}, listed_at: listed.listed_at })
    const bulkMs = performance.now() - t0
    running = false
    await other
    if (result.done !== BULK) throw new Error(`datalist bench: bulk changed ${result.done}`)
    emit('datalist.bulk_set_field_5000_sqlite_ms', Math.round(bulkMs), 'ms', 2000)
    emit('datalist.bulk_other_call_max_ms', round(Math.max(...delays)), 'ms', 100)
    await app.close()
  } finally {
    await db.close()
    fs.rmSync(dir, { recursive: true, force: true })
  }
  await postgresPages(process.env.BENCH_DATABASE_URL)
}

/**
 * The same server pages on PostgreSQL, in a schema made for the run on the cluster BENCH_DATABASE_URL
 * names (scripts/pg-test.sh starts a throwaway one and sets it); without one the lines are skipped.
 */
async function postgresPages(url: string | undefined): Promise<void> {
  if (!url) {
    console.error('[bench:datalist] BENCH_DATABASE_URL is not set: the PostgreSQL page lines are skipped')
    return
  }
  const schema = `bench_datalist_${process.pid}`
  const admin = new Client({ connectionString: url })
  await admin.connect()
  try {
    await admin.query(`create schema ${schema}`)
    const db = openDatabase({ kind: 'postgres', url, schema })
    try {
      const { app, post, big, bigFields } = await setUp(db)
      const pages = await pageTimes(post, big.id, bigFields)
      emit('datalist.server_first_page_100k_postgres_ms', round(pages.first), 'ms', 300)
      emit('datalist.server_page_100k_postgres_ms', round(pages.warm), 'ms', 300)
      await app.close()
    } finally {
      await db.close()
      await admin.query(`drop schema ${schema} cascade`)
    }
  } finally {
    await admin.end()
  }
}

if (require.main === module) void dataListBench()
