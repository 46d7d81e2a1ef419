/** Runs the server: opens and migrates the database, serves the API and the H5 build, stops cleanly. */
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { buildApp } from './app'
import { systemClock } from './clock'
import { readServerConfig } from './config'
import { openDatabase } from './db/connection'
import { migrateToLatest } from './db/migrations'
import { setServiceContact } from './db/system-config'
import { payProviderFromEnv } from './services/pay'
import { smsSenderFromEnv } from './services/sms'
import { LocalFileStorage } from './services/storage'
import { registerStatic } from './static'

async function main(): Promise<void> {
  const config = readServerConfig(process.env)
  const db = openDatabase(config.database)
  await migrateToLatest(db)
  if (process.env.SERVICE_PHONE !== undefined || process.env.SERVICE_URL !== undefined) {
    await setServiceContact(db.kysely, { phone: process.env.SERVICE_PHONE, url: process.env.SERVICE_URL })
  }

  const storage = new LocalFileStorage(join(config.dataDir, 'uploads'))
  const pay = payProviderFromEnv(process.env)
  const app = buildApp({ db, sms: smsSenderFromEnv(process.env), clock: systemClock, storage, pay, codeCooldownS: config.codeCooldownS, shareSecret: config.shareSecret, logger: { level: process.env.LOG_LEVEL || 'info' } })
  await registerStatic(app, config.staticDir)
  if (!existsSync(join(config.staticDir, 'index.html'))) {
    app.log.warn(`no H5 build at ${config.staticDir}: run \`npm run build:h5\` (the API works without it)`)
  }

  let stopping = false
  const stop = async (signal: string) => {
    if (stopping) return
    stopping = true
    app.log.info(`${signal}: shutting down`)
    try {
      await app.close()
      await db.close()
      process.exit(0)
    } catch (err) {
      app.log.error({ err }, 'shutdown failed')
      process.exit(1)
    }
  }
  process.once('SIGTERM', () => void stop('SIGTERM'))
  process.once('SIGINT', () => void stop('SIGINT'))

  await app.listen({ port: config.port, host: config.host })
  app.log.info(`database: ${config.database.kind}`)
  if (pay.mode === 'sandbox') app.log.warn('payments: local sandbox (no WXPAY_* credentials): /api/pay/sandbox/complete marks orders paid')
}

main().catch((err) => {
  console.error(err)
  process.exit(1)
})
