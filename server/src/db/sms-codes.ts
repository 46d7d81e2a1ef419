/** Repository of the sms_codes table. Only code hashes are stored. */
import { sql } from 'kysely'
import type { DialectName, Executor } from './connection'
import type { SmsCodeRow } from './schema'

/**
 * Serialises code sends and checks for one phone until the transaction ends, so that concurrent
 * requests cannot slip past the cooldown, the daily cap or the wrong-try limit. SQLite already
 * runs one transaction at a time.
 */
export async function lockPhone(trx: Executor, dialect: DialectName, phone: string): Promise<void> {
  if (dialect === 'postgres') await sql`select pg_advisory_xact_lock(hashtext(${'sms:' + phone}))`.execute(trx)
}

export async function insertSmsCode(db: Executor, code: { phone: string; code_hash: string; created_at: string; expires_at: string }): Promise<number> {
  const row = await db
    .insertInto('sms_codes')
    .values({ ...code, wrong_tries: 0, used_at: null })
    .returning('id')
    .executeTakeFirstOrThrow()
  return row.id
}

export function latestSmsCode(db: Executor, phone: string): Promise<SmsCodeRow | undefined> {
  return db.selectFrom('sms_codes').selectAll().where('phone', '=', phone).orderBy('id', 'desc').limit(1).executeTakeFirst()
}

export async function countSmsCodesSince(db: Executor, phone: string, since: string): Promise<number> {
  const row = await db
    .selectFrom('sms_codes')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('phone', '=', phone)
    .where('created_at', '>=', since)
    .executeTakeFirstOrThrow()
  return Number(row.n)
}

export async function addWrongTry(db: Executor, id: number): Promise<void> {
  await db
    .updateTable('sms_codes')
    .set((eb) => ({ wrong_tries: eb('wrong_tries', '+', 1) }))
    .where('id', '=', id)
    .execute()
}

/** Marks the code used; false when it already was. */
export async function consumeSmsCode(db: Executor, id: number, now: string): Promise<boolean> {
  const result = await db.updateTable('sms_codes').set({ used_at: now }).where('id', '=', id).where('used_at', 'is', null).executeTakeFirst()
  return Number(result.numUpdatedRows) === 1
}

export async function deleteSmsCode(db: Executor, id: number): Promise<void> {
  await db.deleteFrom('sms_codes').where('id', '=', id).execute()
}
