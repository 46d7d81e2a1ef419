/** Repository of the server_secrets table: random secrets generated once and kept across restarts and processes. */
import type { Selectable } from 'kysely'
import type { Executor } from './connection'

export interface ServerSecretsTable {
  name: string
  value: string
  created_at: string
}

declare module './schema' {
  interface Tables {
    server_secrets: ServerSecretsTable
  }
}

export type ServerSecretRow = Selectable<ServerSecretsTable>

/** The secret named `name`; `candidate` is stored first when there is none (the first process to store one wins). */
export async function secretNamed(db: Executor, name: string, candidate: string, at: string): Promise<string> {
  await db
    .insertInto('server_secrets')
    .values({ name, value: candidate, created_at: at })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute()
  const row = await db.selectFrom('server_secrets').select('value').where('name', '=', name).executeTakeFirstOrThrow()
  return row.value
}
