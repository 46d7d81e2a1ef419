// ESLint (flat config): typescript-eslint's recommended rules, React's hook rules, import cycles, and
// the layering habits of this code base (DESIGN 4): pages reach the platform through RootStore,
// server routes stay thin, SQL lives in server/src/db. `npm run lint` runs it with `prettier --check`.
import js from '@eslint/js'
import tseslint from 'typescript-eslint'
import reactHooks from 'eslint-plugin-react-hooks'
import { createNodeResolver, importX } from 'eslint-plugin-import-x'
import prettier from 'eslint-config-prettier'
import globals from 'globals'

// How SQL text starts (a statement's first word), for the rule that keeps SQL in server/src/db.
const SQL_START = '/^\\s*(select|insert|update|delete|with|listen|unlisten|notify|begin|commit|rollback|create|drop|alter|pragma|show|copy|truncate|vacuum|analyze|explain|savepoint|release)\\b/i'

const kyselyOnlyInDb = {
  name: 'kysely',
  allowTypeImports: true,
  message: 'Queries live in server/src/db: add or reuse a function there.',
}

export default tseslint.config(
  {
    ignores: ['dist/', '**/node_modules/', '.cache/', '.taro-cache/', '.swc/', 'coverage/', 'data/', 'test/e2e/__screenshots__/', 'test/weapp/mini-runtime.cjs'],
  },
  { linterOptions: { reportUnusedDisableDirectives: 'error' } },

  js.configs.recommended,
  ...tseslint.configs.recommended,

  // Globals of each part (TypeScript checks names in .ts files; these are for the plain .js/.mjs files).
  { files: ['src/**'], languageOptions: { globals: globals.browser } },
  { files: ['server/**', 'scripts/**', 'bench/**', 'config/**', 'test/**', '*.js', '*.mjs'], languageOptions: { globals: globals.node } },
  // The H5 app's service worker template (written into dist/h5/sw.js by config/pwa).
  { files: ['config/pwa/sw.js'], languageOptions: { globals: globals.serviceworker } },
  { files: ['babel.config.js', 'jest.config.js', 'test/support/style-stub.js'], languageOptions: { sourceType: 'commonjs' } },

  {
    rules: {
      // Unused names are removed; a leading underscore marks a parameter that an interface requires.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true }],
    },
  },

  // React's hook rules, on the app's views.
  {
    files: ['src/**/*.tsx', 'src/**/*.ts'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },

  // Import cycles (type-only imports vanish at build time and do not count).
  {
    files: ['**/*.{ts,tsx}'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': ['.ts', '.tsx', '.js', '.mjs', '.cjs'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      // Relative imports only (no path aliases in use): Node's resolution with TypeScript's extensions.
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.mjs', '.js', '.cjs', '.json'] })],
    },
    rules: {
      'import-x/no-cycle': 'error',
    },
  },

  // The app logs nothing to the console (the server, scripts and tests may).
  { files: ['src/**'], rules: { 'no-console': 'error' } },

  // Pages and components reach the platform through RootStore.platform (src/stores/RootStore.ts).
  {
    files: ['src/pages/**', 'src/components/**'],
    ignores: [
      // The three platform view components, each exported through its component folder for pages (Taro picks the platform's file by suffix).
      'src/components/CameraView/index.ts',
      'src/components/MapView/index.ts',
      'src/components/WebFrame/index.ts',
    ],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        { patterns: [{ group: ['**/platform', '**/platform/**', '@/platform/**'], message: 'Pages and components use the platform through RootStore.platform (useStores()).' }] },
      ],
    },
  },

  // The server: SQL in server/src/db; only app.ts mounts the HTTP routes; route files stay thin.
  {
    files: ['server/src/**'],
    ignores: ['server/src/db/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: 'CallExpression[callee.property.name=/^(selectFrom|insertInto|updateTable|deleteFrom|replaceInto|mergeInto|selectNoFrom)$/]',
          message: 'Queries live in server/src/db: add or reuse a function there.',
        },
        // SQL as text: kysely's sql tag, and a template or string handed to a driver's query, exec or prepare.
        {
          selector: 'TaggedTemplateExpression[tag.name="sql"], TaggedTemplateExpression[tag.object.name="sql"]',
          message: 'SQL lives in server/src/db: add or reuse a function there.',
        },
        {
          selector: `CallExpression[callee.property.name=/^(query|exec|prepare)$/] > :matches(TemplateLiteral[quasis.0.value.raw=${SQL_START}], Literal[value=${SQL_START}])`,
          message: 'SQL lives in server/src/db: add or reuse a function there.',
        },
      ],
    },
  },
  {
    files: ['server/src/**'],
    ignores: ['server/src/db/**', 'server/src/routes/**', 'server/src/app.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        { paths: [kyselyOnlyInDb], patterns: [{ group: ['**/routes/*'], message: 'Only server/src/app.ts mounts the HTTP routes; share code through services or schemas.' }] },
      ],
    },
  },
  {
    files: ['server/src/app.ts', 'server/src/routes/define.ts'],
    rules: { '@typescript-eslint/no-restricted-imports': ['error', { paths: [kyselyOnlyInDb] }] },
  },
  {
    files: ['server/src/routes/**'],
    ignores: ['server/src/routes/define.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [kyselyOnlyInDb],
          patterns: [
            { group: ['./*', '!./define'], message: 'A route file imports no other route file: share code through services or schemas.' },
            { group: ['../db/*', '../presenters/*'], allowTypeImports: true, message: 'Routes call services; services call db and presenters.' },
          ],
        },
      ],
    },
  },

  // `any` where the other side has no types.
  {
    // Kysely<any> is kysely's own pattern for migrations: a migration must not depend on today's schema types.
    files: ['server/src/db/migrations/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // The map and camera SDK boundaries: the AMap JS API ships no types, Leaflet's Class.extend binds `this` untyped, and WeChat's map props are loosely typed by Taro.
    files: [
      'src/platform/map/amapEngine.ts',
      'src/platform/map/canvasLayer.ts',
      'src/platform/map/pointLayer.ts',
      'src/platform/map/MapView.h5.tsx',
      'src/platform/map/MapView.weapp.tsx',
      'src/platform/location/index.h5.ts',
      'src/platform/camera/draw.ts',
    ],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // Tests and benchmarks: fakes cast partial platform objects, and untyped JSON answers and Chrome trace events are read as they come; the assertions check behaviour.
    files: ['test/**', 'bench/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },

  // CommonJS files: config files and the scripts the weapp tests load into the packer's processes with node -r.
  {
    files: ['babel.config.js', 'jest.config.js', 'test/devtools/jest.config.js', 'test/support/style-stub.js', '**/*.cjs'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },

  // Last: turn off the rules Prettier's formatting settles.
  prettier,
)
