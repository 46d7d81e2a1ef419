/**
 * Runs WeChat's packer (miniprogram-ci's getCompiledResult) over a built mini-program in a process
 * of its own, so that the offline guard (offline-guard.cjs, through NODE_OPTIONS) covers it and
 * every process it forks, and records all they print. Writes one JSON report:
 *   PACK_OPTIONS='{"projectPath","appid","privateKeyPath","outZip","version"}' node pack-runner.cjs <report.json>
 */
const fs = require('node:fs')

const [reportPath] = process.argv.slice(2)
const opts = JSON.parse(process.env.PACK_OPTIONS)

async function main() {
  const started = Date.now()
  const ci = require('miniprogram-ci')
  const project = new ci.Project({
    appid: opts.appid,
    type: 'miniProgram',
    projectPath: opts.projectPath,
    privateKeyPath: opts.privateKeyPath,
    // The account's attributes would come from WeChat's servers (getattr, signed with the key). The
    // packer's own defaults (app type, the package and tabBar limits it checks app.json against)
    // keep it offline.
    attr: async () => ({ ...ci.DefaultProjectAttr }),
  })
  const files = await ci.getCompiledResult({ project, version: opts.version, setting: { es6: false, minify: false } }, opts.outZip)
  const sizes = Object.fromEntries(Object.entries(files).map(([name, content]) => [name, Buffer.byteLength(content)]))
  return { ok: true, ms: Date.now() - started, sizes }
}

main()
  .catch((err) => ({ ok: false, error: String(err && err.stack ? err.stack : err), code: err && err.code }))
  .then((result) => {
    fs.writeFileSync(reportPath, JSON.stringify(result))
    // The packer leaves its compiler child running for reuse; this run is done.
    process.exit(0)
  })
