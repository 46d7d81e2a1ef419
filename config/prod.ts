import type { UserConfigExport } from '@tarojs/cli'

export default {
  // Keep CI logs readable: errors still print, progress bars and asset tables do not.
  logger: { quiet: true, stats: false },
  mini: {},
  h5: {},
} satisfies UserConfigExport<'webpack5'>
