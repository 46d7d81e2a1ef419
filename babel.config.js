// babel-preset-taro: https://docs.taro.zone/docs/next/babel-config
// No core-js polyfills: browserslist targets WebViews (Chrome 73+, iOS 12.2+) that have what we use,
// and the polyfills cost 35 KB gzip of the 200 KB /login budget (DESIGN 7).
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
