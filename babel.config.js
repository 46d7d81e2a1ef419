// babel-preset-taro: https://docs.taro.zone/docs/next/babel-config
// No core-js polyfills: browserslist targets WebViews (Chrome 73+, iOS 12.2+) that have what we use,
// and the polyfills cost 35 KB gzip of the 200 KB /login budget (DESIGN 7).
// Android's WebView is named by ChromeAndroid in package.json's browserslist, not by "Android >= 7":
// Babel reads "Android" as the old stock browser at its oldest Chromium WebView (Chrome 37), and
// with it every class, async function and generator was compiled to ES5 and regenerator state
// machines: 10 KB gzip more in /login, and slower code on the phone than the engine's own.
module.exports = {
  presets: [['taro', { framework: 'react', ts: true, compiler: 'webpack5', useBuiltIns: false }]],
  plugins: [
    [
      'import',
      {
        libraryName: '@nutui/nutui-react-taro',
        libraryDirectory: 'dist/es/packages',
        style: (name) => `${name}/style/css`,
        camel2DashComponentName: false,
        customName: (name) => `@nutui/nutui-react-taro/dist/es/packages/${name.toLowerCase()}`,
      },
      'nutui-react-taro',
    ],
  ],
}
