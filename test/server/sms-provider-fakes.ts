/**
 * Local stand-ins of Alibaba Cloud's and Tencent Cloud's SendSms endpoints. Each checks a request's
 * signature the way the provider documents it (Alibaba Cloud's V3 ACS3-HMAC-SHA256, Tencent Cloud's
 * TC3-HMAC-SHA256), refuses a wrong one as the provider does, and otherwise answers with the
 * outcome a test set for the phone number (OK by default).
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto'
import http from 'node:http'
import type { AddressInfo } from 'node:net'

export interface SmsFakeRequest {
  phone: string
  signName: string
  template: string
  /** The code as the template receives it. */
  code: string
}

export interface SmsFake {
  /** `http://127.0.0.1:<port>`, for SMS_ENDPOINT. */
  url: string
  /** host:port, for the adapters' endpoint option. */
  host: string
  accepted: SmsFakeRequest[]
  rejectedSignatures: number
  /** The next answers for a phone: a provider error code (Aliyun Code / Tencent SendStatusSet Code) and message. */
  refuse(phone: string, code: string, message?: string): void
  close(): Promise<void>
}

const sha256hex = (data: string | Buffer) => createHash('sha256').update(data).digest('hex')
const hmac = (key: string | Buffer, data: string) => createHmac('sha256', key).update(data).digest()
const same = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b))

/** RFC 3986 encoding as Alibaba Cloud's canonical query string wants it. */
function acsEncode(value: string): string {
  return encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
}

async function listen(handler: (req: http.IncomingMessage, body: Buffer, res: http.ServerResponse) => void): Promise<{ server: http.Server; host: string }> {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => handler(req, Buffer.concat(chunks), res))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { server, host: `127.0.0.1:${(server.address() as AddressInfo).port}` }
}

function json(res: http.ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json;charset=utf-8' })
  res.end(JSON.stringify(body))
}

function fakeBase(host: string, server: http.Server, refusals: Map<string, { code: string; message: string }>): SmsFake {
  return {
    url: `http://${host}`,
    host,
    accepted: [],
    rejectedSignatures: 0,
    refuse(phone, code, message = code) {
      refusals.set(phone, { code, message })
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

/** Alibaba Cloud dysmsapi 2017-05-25 SendSms, for the key pair (accessKeyId, secret). */
export async function fakeAliyunSms(accessKeyId: string, secret: string): Promise<SmsFake> {
  const refusals = new Map<string, { code: string; message: string }>()
  let requests = 0
  const { server, host } = await listen((req, body, res) => {
    const requestId = `ALI-REQ-${++requests}`
    const url = new URL(req.url ?? '/', `http://${req.headers.host}`)
    const auth = /^ACS3-HMAC-SHA256 Credential=([^,]+),SignedHeaders=([^,]+),Signature=([0-9a-f]+)$/.exec(String(req.headers.authorization ?? ''))
    const signed = auth?.[2].split(';') ?? []
    // The signed headers must cover what makes a request unique and fresh.
    const mustSign = ['host', 'x-acs-action', 'x-acs-content-sha256', 'x-acs-date', 'x-acs-signature-nonce', 'x-acs-version']
    let valid = !!auth && auth[1] === accessKeyId && mustSign.every((h) => signed.includes(h)) && req.headers['x-acs-content-sha256'] === sha256hex(body)
    if (valid && auth) {
      const query = [...url.searchParams.keys()]
        .sort()
        .map((k) => `${k}=${acsEncode(url.searchParams.get(k) ?? '')}`)
        .join('&')
      const headers = signed.map((h) => `${h}:${String(req.headers[h] ?? '').trim()}\n`).join('')
      const canonical = [req.method, url.pathname, query, headers, signed.join(';'), sha256hex(body)].join('\n')
      const expected = hmac(secret, `ACS3-HMAC-SHA256\n${sha256hex(canonical)}`).toString('hex')
      valid = same(expected, auth[3])
    }
    if (!valid) {
      fake.rejectedSignatures++
      return json(res, 400, { RequestId: requestId, Code: 'SignatureDoesNotMatch', Message: 'Specified signature does not match our calculation.', HostId: 'dysmsapi.aliyuncs.com' })
    }
    if (req.headers['x-acs-action'] !== 'SendSms' || req.headers['x-acs-version'] !== '2017-05-25') return json(res, 404, { RequestId: requestId, Code: 'InvalidAction.NotFound', Message: 'action' })
    const phone = url.searchParams.get('PhoneNumbers') ?? ''
    const refusal = refusals.get(phone)
    if (refusal) {
      refusals.delete(phone)
      return json(res, 200, { RequestId: requestId, Code: refusal.code, Message: refusal.message })
    }
    const param = JSON.parse(url.searchParams.get('TemplateParam') ?? '{}') as { code?: string }
    fake.accepted.push({ phone, signName: url.searchParams.get('SignName') ?? '', template: url.searchParams.get('TemplateCode') ?? '', code: param.code ?? '' })
    json(res, 200, { RequestId: requestId, Code: 'OK', Message: 'OK', BizId: `BIZ-${requests}` })
  })
  const fake = fakeBase(host, server, refusals)
  return fake
}

/** Tencent Cloud SMS 2021-01-11 SendSms, for the key pair (secretId, secretKey). */
export async function fakeTencentSms(secretId: string, secretKey: string): Promise<SmsFake> {
  const refusals = new Map<string, { code: string; message: string }>()
  let requests = 0
  const { server, host } = await listen((req, body, res) => {
    const requestId = `TC-REQ-${++requests}`
    const auth = /^TC3-HMAC-SHA256 Credential=([^/]+)\/(\d{4}-\d{2}-\d{2})\/([^/]+)\/tc3_request, SignedHeaders=([^,]+), Signature=([0-9a-f]+)$/.exec(String(req.headers.authorization ?? ''))
    const timestamp = Number(req.headers['x-tc-timestamp'])
    const refuse = (code: string, message: string) => json(res, 200, { Response: { Error: { Code: code, Message: message }, RequestId: requestId } })
    if (!auth || auth[1] !== secretId) {
      fake.rejectedSignatures++
      return refuse('AuthFailure.SecretIdNotFound', 'The SecretId is not found.')
    }
    const [, , date, service, signedHeaders, signature] = auth
    // The gateway derives the service from the host it was called on (sms.tencentcloudapi.com ->
    // sms); the SDK signs with the first label of the endpoint, so the stand-in does the same.
    const hostname = String(req.headers.host ?? '').split(':')[0]
    const scopeOk = service === hostname.split('.')[0] && date === new Date(timestamp * 1000).toISOString().slice(0, 10) && Math.abs(Date.now() / 1000 - timestamp) < 300
    const headers = signedHeaders
      .split(';')
      .map((h) => `${h}:${h === 'host' ? hostname : String(req.headers[h] ?? '').trim()}\n`)
      .join('')
    const canonical = [req.method, new URL(req.url ?? '/', 'http://x').pathname, '', headers, signedHeaders, sha256hex(body)].join('\n')
    const stringToSign = ['TC3-HMAC-SHA256', String(timestamp), `${date}/${service}/tc3_request`, sha256hex(canonical)].join('\n')
    const key = hmac(hmac(hmac(`TC3${secretKey}`, date), service), 'tc3_request')
    if (!scopeOk || !signedHeaders.split(';').includes('host') || !same(hmac(key, stringToSign).toString('hex'), signature)) {
      fake.rejectedSignatures++
      return refuse('AuthFailure.SignatureFailure', 'The provided credentials could not be validated. Please check your signature is correct.')
    }
    if (req.headers['x-tc-action'] !== 'SendSms' || req.headers['x-tc-version'] !== '2021-01-11') return refuse('InvalidAction', 'action')
    const p = JSON.parse(body.toString('utf8')) as { PhoneNumberSet: string[]; SignName: string; TemplateId: string; TemplateParamSet: string[]; SmsSdkAppId: string }
    const phone = p.PhoneNumberSet[0]
    const refusal = refusals.get(phone)
    if (refusal) {
      refusals.delete(phone)
      return json(res, 200, {
        Response: { SendStatusSet: [{ SerialNo: '', PhoneNumber: phone, Fee: 0, SessionContext: '', Code: refusal.code, Message: refusal.message, IsoCode: 'CN' }], RequestId: requestId },
      })
    }
    fake.accepted.push({ phone, signName: p.SignName, template: p.TemplateId, code: p.TemplateParamSet[0] })
    json(res, 200, {
      Response: { SendStatusSet: [{ SerialNo: `SERIAL-${requests}`, PhoneNumber: phone, Fee: 1, SessionContext: '', Code: 'Ok', Message: 'send success', IsoCode: 'CN' }], RequestId: requestId },
    })
  })
  const fake = fakeBase(host, server, refusals)
  return fake
}
