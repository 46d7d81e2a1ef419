/** `npm run bench`: prints every budget of DESIGN 7 that exists so far; always exits 0. */
import { execSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { browserBench } from './browser'
import { dataListBench } from './datalist'
import { markersBench } from './markers'
import { outboxBench } from './outbox'
import { printBench } from './print'
import { savesBench } from './saves'
import { serverBench } from './server'
import { h5Sizes, weappSizes } from './sizes'
import { syncBenchChild } from './sync'
import { vrpBench } from './vrp'

const ROOT = path.resolve(__dirname, '..')

async function main() {
  for (const [target, marker] of [
    ['weapp', 'dist/weapp/app.json'],
    ['h5', 'dist/h5/index.html'],
  ]) {
    if (!fs.existsSync(path.join(ROOT, marker))) execSync(`npx taro build --type ${target}`, { cwd: ROOT, stdio: 'inherit' })
  }
  weappSizes()
  await h5Sizes()
  markersBench()
  vrpBench()
  serverBench()
  await dataListBench()
  printBench()
  syncBenchChild()
  await savesBench()
  await outboxBench()
  await browserBench()
}

main().catch((e) => {
  console.error(e)
  process.exitCode = 0
})
