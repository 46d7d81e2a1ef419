/**
 * The H5 build as an installable app that opens without network: a web app manifest, its icons
 * (drawn by scripts/make-pwa-icons.mjs) and a service worker (./sw.js) told the build's files and a
 * version made from their contents. PwaPlugin adds them to the H5 production build only
 * (config/prod.ts): the mini-program build and watch builds carry none of it.
 */
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import type { Compiler } from 'webpack'

export const APP_NAME = '团队地图'
/** The app's primary colour (src/app.scss --nutui-color-primary, index.html's theme-color). */
export const THEME_COLOR = '#165DFF'
export const MANIFEST_FILE = 'manifest.webmanifest'
export const SW_FILE = 'sw.js'
/** Where the app starts when opened from the home screen (the map; the app sends a signed-out user to /login). */
export const START_URL = '/map'
export const ICONS = [
  { size: 192, file: 'pwa/icon-192.png' },
  { size: 512, file: 'pwa/icon-512.png' },
] as const

const ICON_DIR = path.resolve(__dirname, '../../src/assets/pwa')
const SW_TEMPLATE = path.resolve(__dirname, 'sw.js')

export interface WebManifest {
  name: string
  short_name: string
  description: string
  lang: string
  start_url: string
  scope: string
  display: 'standalone'
  orientation: 'portrait'
  background_color: string
  theme_color: string
  icons: { src: string; sizes: string; type: 'image/png'; purpose: 'any' | 'maskable' }[]
}

export function webManifest(): WebManifest {
  return {
    name: APP_NAME,
    short_name: APP_NAME,
    description: '团队协作的地图数据：图层、标注、备注与签到',
    lang: 'zh-CN',
    start_url: START_URL,
    scope: '/',
    display: 'standalone',
    orientation: 'portrait',
    background_color: '#ffffff',
    theme_color: THEME_COLOR,
    // The same drawing serves both purposes: its pin stays inside the maskable safe zone.
    icons: ICONS.flatMap(({ size, file }) => (['any', 'maskable'] as const).map((purpose) => ({ src: `/${file}`, sizes: `${size}x${size}`, type: 'image/png' as const, purpose }))),
  }
}

/**
 * The files the worker keeps for starting without network: every file of the build (index.html,
 * entry and route chunks, CSS, images, the manifest and icons) except source maps, licence notes
 * and the worker itself, sorted so that the same build lists them the same way.
 */
export function precacheList(files: readonly string[]): string[] {
  return files.filter((f) => f !== SW_FILE && !f.endsWith('.map') && !f.endsWith('.LICENSE.txt')).sort()
}

/** The build's version: changes when any kept file's name or content does, so a new build installs a new worker. */
export function buildVersion(files: readonly string[], content: (file: string) => Buffer | string): string {
  const hash = createHash('sha256')
  for (const f of files)
    hash
      .update(f)
      .update('\0')
      .update(createHash('sha256').update(content(f)).digest())
      .update('\0')
  return hash.digest('hex').slice(0, 16)
}

/** dist/h5/sw.js: the build's facts, then the worker (./sw.js), which reads them from self.__TEAMMAP_BUILD__. */
export function serviceWorkerSource(files: readonly string[], content: (file: string) => Buffer | string, template = fs.readFileSync(SW_TEMPLATE, 'utf8')): string {
  const list = precacheList(files)
  const build = { version: buildVersion(list, content), files: list }
  return `self.__TEAMMAP_BUILD__ = ${JSON.stringify(build)}\n${template}`
}

/** Adds the icons, the manifest and, last (it lists everything else), the worker to the build's output. */
export class PwaPlugin {
  apply(compiler: Compiler): void {
    const { Compilation, sources } = compiler.webpack
    compiler.hooks.thisCompilation.tap('TeammapPwa', (compilation) => {
      // REPORT is the last stage: index.html and every chunk and copied file are there by then.
      compilation.hooks.processAssets.tap({ name: 'TeammapPwa', stage: Compilation.PROCESS_ASSETS_STAGE_REPORT }, () => {
        for (const { file } of ICONS) compilation.emitAsset(file, new sources.RawSource(fs.readFileSync(path.join(ICON_DIR, path.basename(file)))))
        compilation.emitAsset(MANIFEST_FILE, new sources.RawSource(JSON.stringify(webManifest(), null, 2)))
        const names = compilation.getAssets().map((a) => a.name)
        const content = (name: string) => compilation.getAsset(name)!.source.buffer()
        compilation.emitAsset(SW_FILE, new sources.RawSource(serviceWorkerSource(names, content)))
      })
    })
  }
}
