/** The SMS senders: the development console line the e2e tests read, and the HTTP gateway. */
import { consoleSmsSender, httpSmsSender, smsSenderFromEnv } from '../../server/src/services/sms'

afterEach(() => jest.restoreAllMocks())

describe('console SMS sender', () => {
  it('should print exactly one line `phone=<phone> code=<code>`', async () => {
    const lines: string[] = []
    await consoleSmsSender((line) => lines.push(line)).send('13800138000', '012345')
    expect(lines).toEqual(['[sms] phone=13800138000 code=012345\n'])
    expect(lines[0]).toMatch(/^.*phone=(1[3-9]\d{9}) code=(\d{6})\n$/)
  })

  it('should write to stdout by default', async () => {
    const write = jest.spyOn(process.stdout, 'write').mockImplementation(() => true)
    await consoleSmsSender().send('13800138000', '654321')
    expect(write).toHaveBeenCalledTimes(1)
    expect(write).toHaveBeenCalledWith('[sms] phone=13800138000 code=654321\n')
  })
})

describe('HTTP SMS sender', () => {
  it('should POST {phone, code} as JSON with the bearer token', async () => {
    const fetch = jest.fn(async () => new Response('{}', { status: 200 }))
    await httpSmsSender({ url: 'https://sms.example/send', token: 's3cret', fetch }).send('13800138000', '123456')
    expect(fetch).toHaveBeenCalledTimes(1)
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit]
    expect(url).toBe('https://sms.example/send')
    expect(init.method).toBe('POST')
    expect(init.headers).toMatchObject({ 'content-type': 'application/json', authorization: 'Bearer s3cret' })
    expect(JSON.parse(init.body as string)).toEqual({ phone: '13800138000', code: '123456' })
  })

  it('should fail when the gateway does not answer 2xx', async () => {
    const fetch = jest.fn(async () => new Response('no', { status: 502 }))
    await expect(httpSmsSender({ url: 'https://sms.example/send', fetch }).send('13800138000', '123456')).rejects.toThrow('502')
  })

  it('should be used only when SMS_HTTP_URL is configured', async () => {
    const fetch = jest.spyOn(globalThis, 'fetch').mockResolvedValue(new Response('{}', { status: 200 }))
    const write = jest.spyOn(process.stdout, 'write').mockImplementation(() => true)
    await smsSenderFromEnv({ NODE_ENV: 'test', TARO_ENV: undefined, TARO_APP_ID: '' }).send('13800138000', '111111')
    expect(write).toHaveBeenCalledTimes(1)
    expect(fetch).not.toHaveBeenCalled()
    await smsSenderFromEnv({ NODE_ENV: 'test', TARO_ENV: undefined, TARO_APP_ID: '', SMS_HTTP_URL: 'https://sms.example/send', SMS_HTTP_TOKEN: 't' }).send('13800138000', '222222')
    expect(fetch).toHaveBeenCalledTimes(1)
    expect(write).toHaveBeenCalledTimes(1)
  })
})
