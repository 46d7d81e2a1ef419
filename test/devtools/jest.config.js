// The DevTools journeys (`npm run test:devtools`, scripts/devtools.mjs): their own jest config, so
// that `npm test`, whose projects are listed in the root jest.config.js, never picks them up.
const base = require('../../jest.config.js').projects.find((p) => p.displayName === 'e2e')

module.exports = {
  ...base,
  rootDir: '../..',
  displayName: 'devtools',
  testMatch: ['<rootDir>/test/devtools/**/*.test.[jt]s?(x)'],
}
