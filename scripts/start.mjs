// `npm start`: builds the H5 app when its build is missing or older than its sources, compiles the
// API server (scripts/build-server.mjs, about a second), then runs it with plain node (it also
// serves dist/h5) in the foreground, forwarding SIGTERM/SIGINT to it.
import { spawn, spawnSync } from 'node:child_process'
import { existsSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { buildServer } from './build-server.mjs'

const ROOT = new URL('..', import.meta.url).pathname
const H5_INDEX = join(ROOT, 'dist/h5/index.html')
// What the H5 build is made from.
const SOURCES = ['src', 'types', 'config'].map((dir) => join(ROOT, dir))

function newestMtime(path) {
  if (!existsSync(path)) return 0
  const info = statSync(path)
  if (!info.isDirectory()) return info.mtimeMs
  return readdirSync(path).reduce((newest, name) => Math.max(newest, newestMtime(join(path, name))), info.mtimeMs)
}

function h5BuildIsStale() {
  if (!existsSync(H5_INDEX)) return true
  const built = statSync(H5_INDEX).mtimeMs
  return SOURCES.some((dir) => newestMtime(dir) > built)
}

if (h5BuildIsStale()) {
  console.log('[start] building H5 (npx taro build --type h5) ...')
  const build = spawnSync('npx', ['taro', 'build', '--type', 'h5'], { cwd: ROOT, stdio: 'inherit' })
  if (build.status !== 0) {
    console.error('[start] H5 build failed')
    process.exit(build.status ?? 1)
  }
}

let serverFile
try {
  serverFile = await buildServer()
} catch (err) {
  console.error('[start] server build failed', err)
  process.exit(1)
}

const server = spawn(process.execPath, [serverFile], { cwd: ROOT, stdio: 'inherit' })
for (const signal of ['SIGTERM', 'SIGINT']) {
  process.on(signal, () => server.kill(signal))
}
server.on('exit', (code, signal) => {
  process.exit(code ?? (signal === 'SIGINT' ? 130 : signal === 'SIGTERM' ? 143 : 1))
})
