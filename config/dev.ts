import type { UserConfigExport } from '@tarojs/cli'
import { inlineNutuiIcons } from './inlineIcons'

export default {
  logger: { quiet: false, stats: true },
  mini: {},
  h5: {
    webpackChain(chain, webpack) {
      inlineNutuiIcons(chain, webpack)
    },
  },
} satisfies UserConfigExport<'webpack5'>
