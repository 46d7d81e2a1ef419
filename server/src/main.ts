/** Runs the server: opens and migrates the database, serves the API and the H5 build, stops cleanly. */
import { existsSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { buildApp } from './app'
import { systemClock } from './clock'
import { ADMIN_TOKEN_MIN, readServerConfig, serviceContactFromEnv } from './config'
import { openDatabase } from './db/connection'
import { migrateToLatest } from './db/migrations'
import { setServiceContact } from './db/system-config'
import { AmapGeocoder } from './services/geocode'
import { PayConfigError, payModeLine, payProviderFromEnv } from './services/pay'
import { SmsConfigError, smsSenderFromEnv, smsStartWarning } from './services/sms'
import { StorageConfigError, storageFromEnv } from './services/storage-choice'
import { shareViewTags } from './services/share-card'
import { registerStatic } from './static'

async function main(): Promise<void> {
  const config = readServerConfig(process.env)
  const db = openDatabase(config.database)
  // Before migrating: a storage setting that cannot work stops the start with its reason.
  const { kind: storageKind, storage } = await storageFromEnv(process.env, db, config.dataDir)
  await migrateToLatest(db)
  const service = serviceContactFromEnv(process.env)
  if (service.contact.phone !== undefined || service.contact.url !== undefined) await setServiceContact(db.kysely, service.contact)

  const pay = payProviderFromEnv(process.env)
  const sms = smsSenderFromEnv(process.env)
  // Placing imported addresses needs AMap's web service key (a 'Web服务' key, not the JS API's AMAP_KEY).
  const webKey = process.env.AMAP_WEB_KEY?.trim()
  const geocoder = webKey ? new AmapGeocoder(webKey, process.env.AMAP_WEB_BASE || undefined, (message) => app.log.warn(message)) : undefined
  const app = buildApp({
    db,
    sms,
    clock: systemClock,
    storage,
    pay,
    geocoder,
    codeCooldownS: config.codeCooldownS,
    shareSecret: config.shareSecret,
    adminToken: config.adminToken,
    trustProxy: config.trustProxy,
    hstsMaxAge: config.hstsMaxAge,
    cardFont: config.cardFont,
    codeCaps: config.codeCaps,
    logger: { level: process.env.LOG_LEVEL || 'info' },
  })
  for (const warning of [...service.ignored, ...config.ignored]) app.log.warn(warning)
  const smsWarning = smsStartWarning(process.env, sms)
  if (smsWarning) app.log.warn(smsWarning)
  if (process.env.ADMIN_TOKEN && !config.adminToken) app.log.warn(`ADMIN_TOKEN ignored: shorter than ${ADMIN_TOKEN_MIN} characters (operator calls stay off)`)
  // `npm start` (scripts/start.mjs) starts the server while it builds the H5 app, and says when
  // the build is done: until then pages answer the building page.
  let h5Building = process.env.TEAMMAP_H5_BUILDING === '1' && typeof process.send === 'function'
  process.on('message', (message) => {
    if (message === 'h5-built') h5Building = false
  })
  // The build's folder may not exist yet (the static plugin warns of a missing one).
  if (h5Building) mkdirSync(config.staticDir, { recursive: true })
  await registerStatic(app, config.staticDir, { building: () => h5Building, pageTags: shareViewTags(db.kysely, () => new Date()), frameHosts: config.webFrameHosts })
  if (!h5Building && !existsSync(join(config.staticDir, 'index.html'))) {
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
  app.log.info(`database: ${config.database.kind}, file storage: ${storageKind}`)
  if (pay.mode === 'wechat') app.log.info(payModeLine(pay))
  else app.log.warn(payModeLine(pay))
}

main().catch((err) => {
  // A wrong setting is the operator's to fix: its sentence, not a stack.
  console.error(err instanceof StorageConfigError || err instanceof PayConfigError || err instanceof SmsConfigError ? `cannot start: ${err.message}` : err)
  process.exit(1)
})
