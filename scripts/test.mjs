// `npm test`: lint (ESLint, then Prettier's check), type-check, build both targets, then every jest project (unit, stores, api, server,
// components, weapp build check, H5 end-to-end). With DATABASE_URL set, the server suite runs on
// PostgreSQL instead of SQLite.
import { spawnSync } from 'node:child_process'

const steps = [
  ['lint', 'npx', ['eslint', '.']],
  ['format check', 'npx', ['prettier', '--check', '.']],
  ['type-check', 'npx', ['tsc', '-p', 'tsconfig.json', '--noEmit']],
  ['build weapp', 'npx', ['taro', 'build', '--type', 'weapp']],
  ['build h5', 'npx', ['taro', 'build', '--type', 'h5']],
  ['jest', 'npx', ['jest', '--ci', ...process.argv.slice(2)]],
]

for (const [name, cmd, args] of steps) {
  const started = Date.now()
  console.log(`\n== ${name}: ${cmd} ${args.join(' ')}`)
  const res = spawnSync(cmd, args, { stdio: 'inherit', env: { ...process.env, NODE_ENV: name === 'jest' ? 'test' : 'production' } })
  console.log(`== ${name}: ${res.status === 0 ? 'ok' : 'FAILED'} in ${Math.round((Date.now() - started) / 1000)} s`)
  if (res.status !== 0) process.exit(res.status ?? 1)
}
