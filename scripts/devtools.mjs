// `npm run test:devtools`: the mini-program's journeys in WeChat DevTools (test/devtools), through
// miniprogram-automator. DevTools exists for macOS and Windows only; its command-line tool comes
// from WECHAT_DEVTOOLS_CLI. Without it this prints one line saying what it needs and exits 0, so
// that machines without DevTools (Linux CI) can call it. The journeys build dist/weapp against a
// local server and open it through `cli auto --project dist/weapp --auto-port <port>`
// (WECHAT_DEVTOOLS_AUTO_PORT, default 9420).
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const cli = process.env.WECHAT_DEVTOOLS_CLI

if (!cli) {
  console.log(
    "test:devtools skipped: set WECHAT_DEVTOOLS_CLI to WeChat DevTools' cli (macOS: /Applications/wechatwebdevtools.app/Contents/MacOS/cli, Windows: <install dir>\\cli.bat), signed in, with 设置 → 安全设置 → 服务端口 on",
  )
  process.exit(0)
}
if (!fs.existsSync(cli)) {
  // Set but wrong is a mistake to fix, not a machine without DevTools.
  console.error(`test:devtools: WECHAT_DEVTOOLS_CLI=${cli} does not exist`)
  process.exit(1)
}

const jest = path.join(root, 'node_modules', 'jest', 'bin', 'jest.js')
const res = spawnSync(process.execPath, [jest, '--config', path.join(root, 'test/devtools/jest.config.js'), '--runInBand', ...process.argv.slice(2)], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, NODE_ENV: 'test' },
})
process.exit(res.status ?? 1)
