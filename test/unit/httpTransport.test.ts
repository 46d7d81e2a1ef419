/** The H5 HTTP transport (native fetch) against a loopback server: what the API client gets back. */
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { taroTransport } from '../../src/platform/http/index.h5'

let server: http.Server
let base = ''
const seen: { method?: string; type?: string; body: string }[] = []

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = ''
    req.on('data', (c) => (body += c))
    req.on('end', () => {
      seen.push({ method: req.method, type: req.headers['content-type'], body })
      if (req.url === '/json') {
        res.writeHead(200, { 'content-type': 'application/json' })
        res.end(JSON.stringify({ header: { errcode: 0, errmsg: '' }, data: { echo: JSON.parse(body) } }))
      } else if (req.url === '/unauthorized') {
        res.writeHead(401)
        res.end('')
      } else {
        res.writeHead(502, { 'content-type': 'text/html' })
        res.end('<h1>Bad Gateway</h1>')
      }
    })
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})

afterAll(() => new Promise<void>((r) => server.close(() => r())))

describe('H5 HTTP transport', () => {
  it('posts JSON and returns the parsed envelope with the status', async () => {
    const res = await taroTransport.post(`${base}/json`, { phone: '13800138000', header: { token: 't' } })
    expect(res).toEqual({ status: 200, data: { header: { errcode: 0, errmsg: '' }, data: { echo: { phone: '13800138000', header: { token: 't' } } } } })
    expect(seen.at(-1)).toMatchObject({ method: 'POST', type: 'application/json' })
  })

  it('returns the status of an empty or non-JSON answer for the client to report (401, 5xx)', async () => {
    expect(await taroTransport.post(`${base}/unauthorized`, {})).toEqual({ status: 401, data: null })
    expect(await taroTransport.post(`${base}/proxy-error`, {})).toEqual({ status: 502, data: '<h1>Bad Gateway</h1>' })
  })

  it('rejects when nothing answers (the client shows the network error)', async () => {
    const closed = http.createServer()
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r))
    const port = (closed.address() as AddressInfo).port
    await new Promise<void>((r) => closed.close(() => r()))
    await expect(taroTransport.post(`http://127.0.0.1:${port}/json`, {})).rejects.toBeTruthy()
  })
})
