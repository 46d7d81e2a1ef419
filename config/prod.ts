import path from 'node:path'
import type { UserConfigExport } from '@tarojs/cli'
import { inlineNutuiIcons } from './inlineIcons'
import { PwaPlugin } from './pwa'

/**
 * `npm start` (scripts/start.mjs) asks for progress lines with TEAMMAP_BUILD_PROGRESS=1: each
 * whole percent once, as `@progress <percent> <stage>` on stdout, which it shows as one short line
 * instead of the build's own output.
 */
function progressLines() {
  let last = -1
  return (fraction: number, stage: string) => {
    const percent = Math.floor(fraction * 100)
    if (percent === last) return
    last = percent
    process.stdout.write(`@progress ${percent} ${stage}\n`)
  }
}

export default {
  // Keep CI logs readable: errors still print, progress bars and asset tables do not.
  logger: { quiet: true, stats: false },
  mini: {},
  h5: {
    // The installable app (config/pwa): index.html registers the worker only in this build, not in watch builds.
    htmlPluginOption: { serviceWorker: true },
    webpackChain(chain, webpack) {
      chain.plugin('teammapPwa').use(PwaPlugin)
      inlineNutuiIcons(chain, webpack)
      // Bundle sizes have their budgets in bench/sizes.ts (lazy pages, gzip): webpack's generic
      // 244 KiB hints only repeat, three times per build, what nobody building the app can act on.
      chain.performance.hints(false)
      // Taro's component styles carry WeUI's icon font, which no screen of this app shows (see the loader).
      chain.module
        .rule('teammapStripWeuiFont')
        .test(/@tarojs[\\/]components[\\/].*\.css$/)
        .enforce('pre')
        .use('strip')
        .loader(path.join(__dirname, 'strip-weui-font.cjs'))
      // The persistent cache's notes (big strings, items it cannot serialise) are webpack's own
      // business; errors still print.
      chain.merge({ infrastructureLogging: { level: 'error' } })
      if (process.env.TEAMMAP_BUILD_PROGRESS === '1') chain.plugin('teammapProgress').use(webpack.ProgressPlugin, [progressLines()])
    },
  },
} satisfies UserConfigExport<'webpack5'>
