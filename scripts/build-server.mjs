// Compiles the API server (server/src/main.ts and what it imports from src/ and types/) into one
// CommonJS file, dist/server/main.cjs, with esbuild; packages stay in node_modules. `npm start`
// runs this file with plain node: measured with bench/server.ts, the same server under tsx takes
// about 50 MB more memory (the TypeScript loader and its source maps), which broke DESIGN 7's
// 250 MB budget. A source map sits beside it for stack traces (node --enable-source-maps).
import { build } from 'esbuild'
import { fileURLToPath } from 'node:url'

const ROOT = fileURLToPath(new URL('..', import.meta.url))

/**
 * The import file parser's worker thread (server/src/services/file-parser.ts), bundled with its
 * packages into one script that the server hands to `new Worker` with eval: it travels inside the
 * server's file as the constant PARSE_WORKER_CODE, so the compiled server stays one file. Same
 * options as PARSE_WORKER_BUILD there.
 */
async function buildParseWorker() {
  const built = await build({
    absWorkingDir: ROOT,
    entryPoints: ['server/src/services/file-parser.worker.ts'],
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    write: false,
    logLevel: 'warning',
  })
  return built.outputFiles[0].text
}

/**
 * The print worker (server/src/services/print.ts), bundled the same way; resvg (native), pdfkit and
 * fontkit (data files beside their code) stay packages, as PRINT_WORKER_BUILD there says.
 */
async function buildPrintWorker() {
  const built = await build({
    absWorkingDir: ROOT,
    entryPoints: ['server/src/services/print-worker.ts'],
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    write: false,
    logLevel: 'warning',
    external: ['@resvg/resvg-js', 'pdfkit', 'fontkit'],
  })
  return built.outputFiles[0].text
}

/** Bundles `entry` (relative to the project) into `outfile`; resolves when written. */
export async function buildServer(entry = 'server/src/main.ts', outfile = 'dist/server/main.cjs') {
  const [parseWorker, printWorker] = await Promise.all([buildParseWorker(), buildPrintWorker()])
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
    define: { PARSE_WORKER_CODE: JSON.stringify(parseWorker), PRINT_WORKER_CODE: JSON.stringify(printWorker) },
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
