import path from 'node:path'
import type { UserConfigExport } from '@tarojs/cli'

type WebpackChain = NonNullable<NonNullable<Extract<UserConfigExport<'webpack5'>, { h5?: unknown }>['h5']>['webpackChain']>

/**
 * The H5 build draws NutUI's icons as inline svg (src/platform/icons/inlineIcon.h5.tsx says why) by
 * putting that module in place of @nutui/icons-react-taro's icon template, which all its icons import.
 */
export function inlineNutuiIcons(...[chain, webpack]: Parameters<WebpackChain>): void {
  chain.plugin('teammapInlineIcons').use(webpack.NormalModuleReplacementPlugin, [/[\\/]IconHarmonyTemplate\.js$/, path.resolve(__dirname, '../src/platform/icons/inlineIcon.h5.tsx')])
}
