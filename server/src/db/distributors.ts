/**
 * Repository of the distributors table (distribution), and the counts of the people a
 * promotion code brought: users whose first sign-in recorded its channel, and those of them with a
 * paid membership order.
 */
import type { Generated, Insertable, Selectable } from 'kysely'
import type { Executor } from './connection'
import { ORDER_PAID } from './vip-orders'

export interface DistributorsTable {
  id: Generated<number>
  name: string
  phone: string
  company: Generated<string>
  code: string
  created_at: string
}

declare module './schema' {
  interface Tables {
    distributors: DistributorsTable
  }
}

export type DistributorRow = Selectable<DistributorsTable>
export type NewDistributor = Omit<Insertable<DistributorsTable>, 'id'>

export function insertDistributor(db: Executor, row: NewDistributor): Promise<DistributorRow> {
  return db.insertInto('distributors').values(row).returningAll().executeTakeFirstOrThrow()
}

export function findDistributorByPhone(db: Executor, phone: string): Promise<DistributorRow | undefined> {
  return db.selectFrom('distributors').selectAll().where('phone', '=', phone).executeTakeFirst()
}

export function findDistributorByCode(db: Executor, code: string): Promise<DistributorRow | undefined> {
  return db.selectFrom('distributors').selectAll().where('code', '=', code).executeTakeFirst()
}

export interface ChannelCounts {
  /** Users whose first sign-in recorded the channel. */
  registered: number
  /** Of those, users with at least one paid membership order. */
  paid: number
}

export async function countUsersOfChannel(db: Executor, channel: string): Promise<ChannelCounts> {
  const [registered, paid] = await Promise.all([
    db
      .selectFrom('users')
      .where('source', '=', channel)
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('users')
      .innerJoin('vip_orders', 'vip_orders.user_id', 'users.id')
      .where('users.source', '=', channel)
      .where('vip_orders.status', '=', ORDER_PAID)
      .select((eb) => eb.fn.count('users.id').distinct().as('n'))
      .executeTakeFirstOrThrow(),
  ])
  return { registered: Number(registered.n), paid: Number(paid.n) }
}
