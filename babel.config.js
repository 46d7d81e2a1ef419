// babel-preset-taro: https://docs.taro.zone/docs/next/babel-config
module.exports = {
  presets: [
    ['taro', { framework: 'react', ts: true, compiler: 'webpack5', useBuiltIns: process.env.TARO_ENV === 'h5' ? 'usage' : false }],
  ],
  plugins: [
    [
      'import',
      { libraryName: '@nutui/nutui-react-taro', libraryDirectory: 'dist/es/packages', style: (name) => `${name}/style/css`, camel2DashComponentName: false, customName: (name) => `@nutui/nutui-react-taro/dist/es/packages/${name.toLowerCase()}` },
      'nutui-react-taro',
    ],
  ],
}
