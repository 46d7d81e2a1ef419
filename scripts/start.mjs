// `npm start`: compiles the API server (scripts/build-server.mjs, about a second) and runs it with
// plain node in the foreground, forwarding SIGTERM/SIGINT to it. When the H5 build is missing or
// older than its sources, it builds it meanwhile (minutes on a small machine): the server answers
// at once, the API works, and the app's pages show a self-refreshing "building" page until the
// build is done (server/src/building.ts). The build's own output is replaced by one progress line;
// a failed build prints the end of that output and stops with a non-zero status.
import { spawn } from 'node:child_process'
import { existsSync, readdirSync, statSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { buildServer } from './build-server.mjs'

const ROOT = new URL('..', import.meta.url).pathname
// The build the server serves (its STATIC_DIR, dist/h5 by default).
const H5_INDEX = join(resolve(ROOT, process.env.STATIC_DIR || 'dist/h5'), 'index.html')
// What the H5 build is made from.
const SOURCES = ['src', 'types', 'config'].map((dir) => join(ROOT, dir))
// The command that makes it; tests put a stand-in here (a real build takes minutes).
const H5_BUILD_COMMAND = process.env.H5_BUILD_COMMAND || 'npx taro build --type h5'
/** webpack's progress stages, as the progress line names them. */
const STAGES = { setup: '准备', building: '编译模块', sealing: '优化打包', emitting: '写出文件', done: '完成' }
/** Lines of the build's output kept to explain a failure. */
const KEPT_LINES = 60
/** The running H5 build, in a process group of its own (npx and taro under a shell), to stop with us. */
let h5Build = null
const stopH5Build = (signal = 'SIGTERM') => {
  try {
    if (h5Build?.exitCode === null) process.kill(-h5Build.pid, signal)
  } catch {
    // already gone
  }
}

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

const elapsed = (since) => {
  const s = Math.round((Date.now() - since) / 1000)
  return s < 60 ? `${s} 秒` : `${Math.floor(s / 60)} 分 ${s % 60} 秒`
}

/**
 * Runs the H5 build, showing its progress (config/prod.ts prints `@progress <percent> <stage>`
 * lines) as one line that updates in a terminal, or a line per tenth in a log; resolves with its
 * exit status and the last lines of everything else it printed.
 */
function buildH5() {
  return new Promise((done) => {
    const started = Date.now()
    const tty = process.stdout.isTTY
    const kept = []
    let shownTenth = -1
    let pending = ''
    const show = (percent, stage) => {
      if (tty) {
        const line = `[start] 构建前端 ${String(percent).padStart(3)}%  ${STAGES[stage] ?? ''}`
        process.stdout.write(`\r\x1b[K${line}`)
      } else if (Math.floor(percent / 10) > shownTenth) {
        shownTenth = Math.floor(percent / 10)
        console.log(`[start] 构建前端 ${percent}%`)
      }
    }
    const take = (chunk) => {
      const lines = (pending + chunk).split('\n')
      pending = lines.pop()
      for (const line of lines) {
        const progress = /^@progress (\d+) ?(\w*)/.exec(line)
        if (progress) show(Number(progress[1]), progress[2])
        else if (line.trim()) kept.push(line)
        if (kept.length > KEPT_LINES) kept.shift()
      }
    }
    const build = (h5Build = spawn(H5_BUILD_COMMAND, {
      cwd: ROOT,
      shell: true,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, TEAMMAP_BUILD_PROGRESS: '1', FORCE_COLOR: '0' },
    }))
    build.stdout.setEncoding('utf8').on('data', take)
    build.stderr.setEncoding('utf8').on('data', take)
    build.on('error', (err) => kept.push(String(err)))
    build.on('close', (code, signal) => {
      take('\n')
      if (tty) process.stdout.write('\r\x1b[K')
      done({ ok: code === 0, status: code ?? (signal ? `signal ${signal}` : 1), kept, took: elapsed(started) })
    })
  })
}

const stale = h5BuildIsStale()
if (stale) {
  console.log(existsSync(H5_INDEX) ? '[start] 前端代码有更新，需要重新构建前端，约需数分钟…' : '[start] 首次启动需要构建前端，约需数分钟…')
}

let serverFile
try {
  serverFile = await buildServer()
} catch (err) {
  console.error('[start] server build failed', err)
  process.exit(1)
}

// On a developer's machine (not NODE_ENV=production, no WeChat Pay merchant set, PAY_SANDBOX not
// chosen either way) payments go through the local sandbox, so that buying a membership can be tried.
const devSandbox = process.env.NODE_ENV !== 'production' && process.env.PAY_SANDBOX === undefined && !process.env.WXPAY_MCHID
const serverEnv = { ...process.env, ...(devSandbox ? { PAY_SANDBOX: '1' } : {}), ...(stale ? { TEAMMAP_H5_BUILDING: '1' } : {}) }

// The IPC channel says when the H5 build is done (server/src/main.ts).
const server = spawn(process.execPath, [serverFile], {
  cwd: ROOT,
  stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
  env: serverEnv,
})
let failed = false
for (const signal of ['SIGTERM', 'SIGINT']) {
  process.on(signal, () => {
    stopH5Build(signal)
    server.kill(signal)
  })
}
server.on('exit', (code, signal) => {
  stopH5Build()
  process.exit(failed ? 1 : (code ?? (signal === 'SIGINT' ? 130 : signal === 'SIGTERM' ? 143 : 1)))
})

if (stale) {
  const port = process.env.PORT || 8080
  console.log(`[start] 构建期间 API 已可用，打开 http://localhost:${port} 会显示“正在构建前端…”，构建完成后自动进入应用`)
  const result = await buildH5()
  if (result.ok) {
    console.log(`[start] 前端构建完成（用时 ${result.took}）`)
    if (server.connected) server.send('h5-built')
  } else {
    failed = true
    if (result.kept.length) console.error(result.kept.join('\n'))
    console.error(`[start] 前端构建失败（${H5_BUILD_COMMAND}，退出状态 ${result.status}），见上方输出；服务已停止`)
    if (server.exitCode === null && server.signalCode === null) server.kill('SIGTERM')
    else process.exit(1)
  }
}
