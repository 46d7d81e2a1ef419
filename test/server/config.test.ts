import path from 'node:path'
import { readServerConfig } from '../../server/src/config'

describe('server configuration from the environment', () => {
  it('defaults to a zero-set-up local run: port 8080 on 127.0.0.1, SQLite under ./data, dist/h5, 60 s code cooldown', () => {
    const cfg = readServerConfig({} as NodeJS.ProcessEnv)
    expect(cfg.port).toBe(8080)
    expect(cfg.host).toBe('127.0.0.1')
    expect(cfg.database).toEqual({ kind: 'sqlite', file: path.resolve('data', 'teammap.db') })
    expect(cfg.staticDir).toBe(path.resolve('dist/h5'))
    expect(cfg.codeCooldownS).toBe(60)
  })

  it('uses PostgreSQL when DATABASE_URL is set', () => {
    const cfg = readServerConfig({ DATABASE_URL: 'postgres://u@127.0.0.1/x' } as unknown as NodeJS.ProcessEnv)
    expect(cfg.database).toEqual({ kind: 'postgres', url: 'postgres://u@127.0.0.1/x' })
  })

  it('reads PORT, HOST, DATA_DIR, STATIC_DIR and SMS_RESEND_COOLDOWN_S, ignoring a nonsense cooldown', () => {
    const cfg = readServerConfig({ PORT: '9090', HOST: '0.0.0.0', DATA_DIR: '/tmp/tm', STATIC_DIR: '/srv/h5', SMS_RESEND_COOLDOWN_S: '1' } as unknown as NodeJS.ProcessEnv)
    expect(cfg).toMatchObject({ port: 9090, host: '0.0.0.0', staticDir: '/srv/h5', codeCooldownS: 1 })
    expect(cfg.database).toEqual({ kind: 'sqlite', file: '/tmp/tm/teammap.db' })
    expect(readServerConfig({ SMS_RESEND_COOLDOWN_S: '-5' } as unknown as NodeJS.ProcessEnv).codeCooldownS).toBe(60)
  })

  it('reads SHARE_SECRET (share password proofs); unset or empty, none (a stored random secret is used)', () => {
    expect(readServerConfig({ SHARE_SECRET: 's3cret-value' } as unknown as NodeJS.ProcessEnv).shareSecret).toBe('s3cret-value')
    expect(readServerConfig({ SHARE_SECRET: '' } as unknown as NodeJS.ProcessEnv).shareSecret).toBeUndefined()
    expect(readServerConfig({} as NodeJS.ProcessEnv).shareSecret).toBeUndefined()
  })
  it("reads TRUST_PROXY (behind a load balancer): true, or the balancers' addresses; unset, empty or false, none", () => {
    const trust = (value?: string) => readServerConfig({ TRUST_PROXY: value } as unknown as NodeJS.ProcessEnv).trustProxy
    expect(trust('true')).toBe(true)
    expect(trust('10.0.0.1, 10.0.1.0/24')).toBe('10.0.0.1, 10.0.1.0/24')
    expect(trust('false')).toBeUndefined()
    expect(trust('')).toBeUndefined()
    expect(trust()).toBeUndefined()
  })
})
