/**
 * Loaded through NODE_OPTIONS=--require into the process that runs WeChat's packer and into every
 * Node process it starts (its compiler runs in a forked child): nothing there may reach another
 * machine, and everything they print is kept for the test to read.
 *
 * - a host name lookup that is not loopback fails at once with ENOTFOUND, so an offline fetch
 *   fails fast instead of waiting for a resolver or a timeout; the c-ares resolvers always fail;
 * - a TCP connection to a host that is not loopback is refused before it is made;
 * - every lookup, connection, HTTP(S) request, child process and line of output is appended to
 *   the JSON-lines file named by OFFLINE_GUARD_LOG, with the process id.
 */
if (!globalThis.__offlineGuardLoaded) {
  globalThis.__offlineGuardLoaded = true
  const fs = require('node:fs')
  const dns = require('node:dns')
  const net = require('node:net')
  const http = require('node:http')
  const https = require('node:https')
  const childProcess = require('node:child_process')
  const { threadId } = require('node:worker_threads')

  const logFile = process.env.OFFLINE_GUARD_LOG
  const record = (event) => {
    if (logFile) fs.appendFileSync(logFile, JSON.stringify({ pid: process.pid, ppid: process.ppid, thread: threadId, ...event }) + '\n')
  }
  record({ kind: 'loaded' })

  const isLoopback = (host) => host === 'localhost' || host === '::1' || /^127\./.test(host) || /^::ffff:127\./.test(host)
  const refused = (host, syscall) => {
    const err = new Error(`${syscall} ENOTFOUND ${host} (offline: the test keeps this process on the machine)`)
    err.code = 'ENOTFOUND'
    err.errno = -3008
    err.syscall = syscall
    err.hostname = host
    return err
  }

  const realLookup = dns.lookup
  dns.lookup = function lookup(host, options, callback) {
    const cb = typeof options === 'function' ? options : callback
    record({ kind: 'lookup', host: String(host) })
    if (isLoopback(String(host))) return realLookup.apply(this, arguments)
    process.nextTick(cb, refused(host, 'getaddrinfo'))
    return {}
  }
  const realPromisesLookup = dns.promises.lookup
  dns.promises.lookup = async (host, ...rest) => {
    record({ kind: 'lookup', host: String(host) })
    if (isLoopback(String(host))) return realPromisesLookup(host, ...rest)
    throw refused(host, 'getaddrinfo')
  }
  for (const mod of [dns, dns.promises]) {
    for (const name of Object.keys(mod)) {
      if (!/^resolve/.test(name) || typeof mod[name] !== 'function') continue
      mod[name] = (host, ...rest) => {
        record({ kind: 'lookup', host: String(host) })
        const cb = rest.find((a) => typeof a === 'function')
        if (mod === dns.promises) return Promise.reject(refused(host, 'query'))
        if (cb) process.nextTick(cb, refused(host, 'query'))
      }
    }
  }

  const realConnect = net.Socket.prototype.connect
  net.Socket.prototype.connect = function connect(...args) {
    const first = Array.isArray(args[0]) ? args[0][0] : args[0]
    const opts = typeof first === 'object' && first !== null ? first : typeof first === 'string' && isNaN(Number(first)) ? { path: first } : { port: first, host: args[1] }
    if (opts.path === undefined) {
      const host = String(opts.host ?? 'localhost')
      record({ kind: 'connect', host, port: opts.port })
      // Refused here whether it is a name or an address, so that a caller's own resolver (the
      // `lookup` option) cannot take it past the lookup guard above.
      if (!isLoopback(host)) {
        process.nextTick(() => this.destroy(refused(host, 'getaddrinfo')))
        return this
      }
    }
    return realConnect.apply(this, args)
  }

  for (const [scheme, mod] of [
    ['http', http],
    ['https', https],
  ]) {
    for (const method of ['request', 'get']) {
      const real = mod[method]
      mod[method] = function (...args) {
        const first = args[0]
        const url = typeof first === 'string' || first instanceof URL ? String(first) : `${scheme}://${first.hostname ?? first.host ?? 'localhost'}${first.path ?? '/'}`
        record({ kind: 'request', url: url.replace(/[?#].*$/, '') })
        return real.apply(this, args)
      }
    }
  }

  // Every child process and worker the packer starts gets this guard too, even where the packer
  // hands it a fresh environment or execArgv (its compile workers get both); the test checks that
  // each one reported in.
  const withGuardEnv = (env) => ({
    ...env,
    NODE_OPTIONS: `${env.NODE_OPTIONS ?? ''} --require ${JSON.stringify(__filename)}`.trim(),
    OFFLINE_GUARD_LOG: logFile ?? '',
  })
  for (const method of ['fork', 'spawn', 'execFile', 'exec']) {
    const real = childProcess[method]
    childProcess[method] = function (...args) {
      const at = args.findIndex((a, i) => i > 0 && a && typeof a === 'object' && !Array.isArray(a))
      if (at > 0 && args[at].env) args[at] = { ...args[at], env: withGuardEnv(args[at].env) }
      const child = real.apply(this, args)
      record({ kind: 'child', method, command: String(args[0]), child: child.pid })
      return child
    }
  }

  const workerThreads = require('node:worker_threads')
  const RealWorker = workerThreads.Worker
  workerThreads.Worker = class extends RealWorker {
    constructor(file, options = {}) {
      const env = options.env && typeof options.env === 'object' ? withGuardEnv(options.env) : options.env
      super(file, { ...options, env, execArgv: [...(options.execArgv ?? process.execArgv), '--require', __filename] })
      record({ kind: 'worker', file: String(file), child: this.threadId })
    }
  }

  // What the packer prints, from any of its processes (its compiler child's output never reaches
  // the terminal: the packer drops it outside DevTools).
  for (const [name, stream] of [
    ['stdout', process.stdout],
    ['stderr', process.stderr],
  ]) {
    const real = stream.write.bind(stream)
    stream.write = (chunk, ...rest) => {
      // The packer colours its lines; the comparison wants the text (ESC is the point of this pattern).
      // eslint-disable-next-line no-control-regex
      record({ kind: 'output', stream: name, text: String(chunk).replace(/\x1b\[[0-9;]*m/g, '') })
      return real(chunk, ...rest)
    }
  }
}
