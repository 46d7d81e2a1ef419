/**
 * The mini-program in WeChat DevTools, driven by miniprogram-automator, against the real server.
 * Only for a machine with DevTools (macOS or Windows): `npm run test:devtools` (scripts/devtools.mjs)
 * runs these journeys with WECHAT_DEVTOOLS_CLI set. Not part of `npm test`: jest.config.js has no
 * devtools project.
 *
 * openDevtools: the server on a free loopback port (its development SMS sender prints the codes),
 * dist/weapp built against it (API_BASE), DevTools opened on dist/weapp with its automation port
 * (`cli auto --project dist/weapp --auto-port <port>`), and the automator connected to that port.
 */
import { execFileSync, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import automator from 'miniprogram-automator'
import type MiniProgram from 'miniprogram-automator/out/MiniProgram'
import type Page from 'miniprogram-automator/out/Page'
import type Element from 'miniprogram-automator/out/Element'
import { ROOT, startServer, type Server } from '../e2e/harness'

export type { MiniProgram, Page, Element }

export const SHOTS = path.join(__dirname, '__screenshots__')
const WEAPP = path.join(ROOT, 'dist/weapp')

export interface Devtools {
  mp: MiniProgram
  server: Server
  close: () => Promise<void>
}

function runCli(cli: string, args: string[]): void {
  // Windows ships the CLI as cli.bat, which only a shell runs.
  const res = spawnSync(cli, args, { stdio: 'inherit', timeout: 180_000, shell: /\.(bat|cmd)$/i.test(cli) })
  if (res.error || res.status !== 0) throw new Error(`${cli} ${args.join(' ')} failed (${res.error ?? `exit ${res.status}`}): is DevTools signed in, with 设置 → 安全设置 → 服务端口 on?`)
}

export async function openDevtools(): Promise<Devtools> {
  const cli = process.env.WECHAT_DEVTOOLS_CLI
  if (!cli) throw new Error('WECHAT_DEVTOOLS_CLI is not set (npm run test:devtools says what it needs)')
  const port = Number(process.env.WECHAT_DEVTOOLS_AUTO_PORT || 9420)
  const server = await startServer({ SMS_RESEND_COOLDOWN_S: '1' })
  try {
    // The app calls the server it is built for: this one.
    execFileSync(process.platform === 'win32' ? 'npx.cmd' : 'npx', ['taro', 'build', '--type', 'weapp'], {
      cwd: ROOT,
      stdio: 'inherit',
      env: { ...process.env, API_BASE: server.url, NODE_ENV: 'production' },
      shell: process.platform === 'win32',
    })
    runCli(cli, ['auto', '--project', WEAPP, '--auto-port', String(port)])
    const mp = await automator.connect({ wsEndpoint: `ws://127.0.0.1:${port}` })
    // No permission dialog DevTools would wait on: a fixed position, location allowed.
    await mp.mockWxMethod('getSetting', { authSetting: { 'scope.userLocation': true }, errMsg: 'getSetting:ok' })
    await mp.mockWxMethod('getLocation', { latitude: 39.909, longitude: 116.397, accuracy: 10, errMsg: 'getLocation:ok' })
    return {
      mp,
      server,
      async close() {
        mp.disconnect()
        try {
          runCli(cli, ['close', '--project', WEAPP])
        } finally {
          await server.stop()
        }
      },
    }
  } catch (e) {
    await server.stop()
    throw e
  }
}

/** Polls until `probe` gives a value (not undefined/null/false) or the time is up. */
export async function until<T>(what: string, probe: () => Promise<T | undefined | null | false>, ms = 15_000): Promise<T> {
  const deadline = Date.now() + ms
  let last: unknown
  for (;;) {
    try {
      const v = await probe()
      if (v !== undefined && v !== null && v !== false) return v as T
    } catch (e) {
      last = e
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${last ? `: ${last}` : ''}`)
    await new Promise((r) => setTimeout(r, 250))
  }
}

/** The page on top of the stack once it is `route` (no leading slash, no query). */
export const onPage = (mp: MiniProgram, route: string) =>
  until(`page ${route}`, async () => {
    const page = await mp.currentPage()
    return page?.path === route ? page : null
  })

type Scope = Page | Element

/**
 * Every element matching a simple WXML selector (one compound: `.x`, `#id`, `input`) in `scope`,
 * looking inside Taro's `comp` custom components too: Taro renders deep trees through them, and a
 * page-level query does not see inside a custom component.
 */
export async function findAll(scope: Scope, selector: string, depth = 0): Promise<Element[]> {
  const found = [...((await scope.$$(selector)) as Element[])]
  if (depth < 8) for (const comp of (await scope.$$('comp')) as Element[]) found.push(...(await findAll(comp, selector, depth + 1)))
  return found
}

export const findOne = (scope: Scope, selector: string) => until(selector, async () => (await findAll(scope, selector))[0])

/** The first element matching a simple WXML selector whose text contains `text`. */
export async function byText(page: Scope, selector: string, text: string | RegExp): Promise<Element | null> {
  for (const el of await findAll(page, selector)) {
    const t = await el.text()
    if (typeof text === 'string' ? t.includes(text) : text.test(t)) return el
  }
  return null
}

export const waitText = (page: Scope, selector: string, text: string | RegExp, ms?: number) => until(`${selector} with ${text}`, () => byText(page, selector, text), ms)

/** The input whose placeholder is `placeholder`. */
export async function inputOf(page: Page, placeholder: string): Promise<Element> {
  return until(`input ${placeholder}`, async () => {
    for (const el of await findAll(page, 'input')) if ((await el.attribute('placeholder')) === placeholder) return el
    return null
  })
}

export async function typeInto(page: Page, placeholder: string, value: string): Promise<void> {
  const el = (await inputOf(page, placeholder)) as unknown as { input: (v: string) => Promise<void> }
  await el.input(value)
}

export async function tapText(page: Scope, selector: string, text: string | RegExp): Promise<void> {
  await (await waitText(page, selector, text)).tap()
}

export async function shot(mp: MiniProgram, name: string): Promise<void> {
  fs.mkdirSync(SHOTS, { recursive: true })
  await mp.screenshot({ path: path.join(SHOTS, `${name}.png`) })
}
