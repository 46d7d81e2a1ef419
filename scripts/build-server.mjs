// Compiles the API server (server/src/main.ts and what it imports from src/ and types/) into one
// CommonJS file, dist/server/main.cjs, with esbuild; packages stay in node_modules. `npm start`
// runs this file with plain node: measured with bench/server.ts, the same server under tsx takes
// about 50 MB more memory (the TypeScript loader and its source maps), which broke DESIGN 7's
// 250 MB budget. A source map sits beside it for stack traces (node --enable-source-maps).
import { build } from 'esbuild'
import { fileURLToPath } from 'node:url'

const ROOT = fileURLToPath(new URL('..', import.meta.url))

/** Bundles `entry` (relative to the project) into `outfile`; resolves when written. */
export async function buildServer(entry = 'server/src/main.ts', outfile = 'dist/server/main.cjs') {
  await build({
    absWorkingDir: ROOT,
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    packages: 'external',
    sourcemap: true,
    logLevel: 'warning',
  })
  return outfile
}

// node scripts/build-server.mjs [entry] [outfile]
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  buildServer(...process.argv.slice(2, 4)).then(
    (file) => console.log(`[build-server] ${file}`),
    (err) => {
      console.error(err)
      process.exit(1)
    },
  )
}
