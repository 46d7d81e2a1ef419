import path from 'node:path'
import { defineConfig, type UserConfigExport } from '@tarojs/cli'
import { requireWithEsbuild } from '@tarojs/helper'
import type * as RoutesModule from '../src/router/routes'
import devConfig from './dev'
import prodConfig from './prod'

const platform = process.env.TARO_ENV || 'h5'
const amapKey = process.env.AMAP_KEY ?? ''
const mapTileUrl = process.env.MAP_TILE_URL || 'https://tile.openstreetmap.org/{z}/{x}/{y}.png'

// Taro compiles only config/ for itself; the route table lives in src/router, so load it with esbuild.
const { builtRoutes } = requireWithEsbuild(path.resolve(__dirname, '../src/router/routes.ts'), {
  customSwcConfig: { jsc: { target: 'es2019' }, module: { type: 'commonjs' } },
}) as typeof RoutesModule

/** H5 browser routing with SPEC's paths: each page answers to its route (and / and /index to the map). */
function customRoutes(): Record<string, string | string[]> {
  const map: Record<string, string[]> = {}
  for (const r of builtRoutes()) (map['/' + r.page] ??= []).push(r.path)
  map['/pages/map/index'].push('/', '/index')
  // /redirect/{path} (SPEC 2's hidden helper): any path below it reaches the redirect page.
  map['/pages/redirect/index'].push('/redirect/:rest+')
  return map
}

// https://docs.taro.zone/docs/config
// The page list comes from the route table: a change there must not reuse a build without the new
// pages (webpack's cache does not see app.config's inputs), so it invalidates the cache. The cache
// lives in the checkout, not in node_modules: checkouts that share one node_modules (a symlink)
// must not share, and overwrite, one cache. (Taro's type lacks webpack's cacheDirectory, which it
// passes on: hence a variable, not a literal.)
const webpackCache = {
  enable: true,
  cacheDirectory: path.resolve(__dirname, '../.cache/webpack'),
  buildDependencies: {
    routes: [path.resolve(__dirname, '../src/router/routes.ts'), path.resolve(__dirname, '../src/router/packages.ts')],
    postcss: [path.resolve(__dirname, 'postcss-weapp-rtl.js')],
  },
}

export default defineConfig<'webpack5'>(async (merge) => {
  const baseConfig: UserConfigExport<'webpack5'> = {
    projectName: 'teammap',
    date: '2026-11-22',
    // NutUI is designed at 375 px, the app at 750.
    designWidth(input?: string | number | { file?: string }) {
      const file: string = ((typeof input === 'object' ? input.file : undefined) ?? '').replace(/\\+/g, '/')
      return file.includes('@nutui') ? 375 : 750
    },
    deviceRatio: { 640: 2.34 / 2, 750: 1, 375: 2, 828: 1.81 / 2 },
    sourceRoot: 'src',
    outputRoot: `dist/${platform}`,
    plugins: [],
    defineConstants: {
      // Base URL of the API: same origin on H5 by default; the weapp needs an absolute https URL.
      API_BASE: JSON.stringify(process.env.API_BASE ?? (platform === 'h5' ? '' : 'http://127.0.0.1:8080')),
      // AMap JS API key and security code for H5; empty means the keyless Leaflet map.
      AMAP_KEY: JSON.stringify(amapKey),
      AMAP_SECURITY_CODE: JSON.stringify(process.env.AMAP_SECURITY_CODE ?? ''),
      MAP_TILE_URL: JSON.stringify(mapTileUrl),
      // The keyless map's attribution; empty derives it from MAP_TILE_URL (platform/map/tileAttribution.ts).
      MAP_TILE_ATTRIBUTION: JSON.stringify(process.env.MAP_TILE_ATTRIBUTION ?? ''),
    },
    alias: {
      '@': path.resolve(__dirname, '..', 'src'),
    },
    // WeChat's map takes marker icons as package file paths, not inlined data: copy them as files.
    copy: { patterns: platform === 'weapp' ? [{ from: 'src/assets/map/', to: 'dist/weapp/assets/map/' }] : [], options: {} },
    framework: 'react',
    compiler: { type: 'webpack5', prebundle: { enable: false } },
    cache: { ...webpackCache },
    mini: {
      postcss: {
        pxtransform: { enable: true, config: {} },
        cssModules: { enable: false, config: { namingPattern: 'module', generateScopedName: '[name]__[local]___[hash:base64:5]' } },
        // NutUI's browser-only `[dir=rtl]` selectors: see the plugin. (Taro only logs, and goes on,
        // when a listed plugin is missing: build.test.ts catches that.)
        './config/postcss-weapp-rtl.js': { enable: true, config: {} },
      },
      optimizeMainPackage: { enable: true },
      // NutUI's per-component styles arrive in different orders per page; order does not matter.
      miniCssExtractPluginOption: { ignoreOrder: true },
    },
    h5: {
      publicPath: '/',
      staticDirectory: 'static',
      // SOURCE_MAP=1 for bundle analysis; off by default to keep dist small.
      enableSourceMap: !!process.env.SOURCE_MAP,
      router: { mode: 'browser', customRoutes: customRoutes() },
      // Written into index.html (src/index.html) so that the server's Content-Security-Policy admits
      // exactly the map sources this build loads, and the e2e harness knows which requests are tiles.
      htmlPluginOption: { mapEngine: amapKey ? 'amap' : 'leaflet', mapTiles: amapKey ? '' : mapTileUrl },
      output: { filename: 'js/[name].[contenthash:8].js', chunkFilename: 'js/[name].[contenthash:8].js' },
      miniCssExtractPluginOption: { ignoreOrder: true, filename: 'css/[name].[contenthash:8].css', chunkFilename: 'css/[name].[contenthash:8].css' },
      postcss: {
        autoprefixer: { enable: true, config: {} },
        pxtransform: { enable: true, config: {} },
        cssModules: { enable: false, config: { namingPattern: 'module', generateScopedName: '[name]__[local]___[hash:base64:5]' } },
      },
    },
  }
  if (process.env.NODE_ENV === 'development') return merge({}, baseConfig, devConfig)
  return merge({}, baseConfig, prodConfig)
})
