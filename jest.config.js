// One jest run with one project per test layer (DESIGN 6). `npm test` runs them all.
const transform = { '^.+\\.[jt]sx?$': ['babel-jest', { configFile: './babel.config.js' }] }
const transformIgnorePatterns = ['/node_modules/(?!(@tarojs|@nutui|@swc/helpers|mobx|mobx-react-lite|supercluster|kdbush|cookie)/)']
const moduleNameMapper = {
  '^@/(.*)$': '<rootDir>/src/$1',
  '\\.(css|scss|sass|less)$': '<rootDir>/test/support/style-stub.js',
}
const node = (name, extra = {}) => ({
  displayName: name,
  testEnvironment: 'node',
  testMatch: [`<rootDir>/test/${name}/**/*.test.[jt]s?(x)`],
  transform,
  transformIgnorePatterns,
  moduleNameMapper,
  ...extra,
})

module.exports = {
  projects: [
    node('unit'),
    node('stores', { setupFilesAfterEnv: ['<rootDir>/test/support/dispose-roots.ts'] }),
    node('api', { setupFilesAfterEnv: ['<rootDir>/test/support/dispose-roots.ts'] }),
    node('server'),
    node('weapp'),
    node('e2e'),
  ],
}
