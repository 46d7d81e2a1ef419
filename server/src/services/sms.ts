/**
 * Sending verification codes. Development prints the code to stdout (no keys needed, DESIGN 1);
 * a real gateway is reached over HTTP when SMS_HTTP_URL is configured.
 */
export interface SmsSender {
  send(phone: string, code: string): Promise<void>
}

/** Prints exactly one line `[sms] phone=<phone> code=<code>`; the e2e tests read it from stdout. */
export function consoleSmsSender(write: (line: string) => void = (line) => process.stdout.write(line)): SmsSender {
  return {
    async send(phone, code) {
      write(`[sms] phone=${phone} code=${code}\n`)
    },
  }
}

export interface HttpSmsOptions {
  url: string
  token?: string
  timeoutMs?: number
  fetch?: typeof fetch
}

/** POSTs {phone, code} as JSON with a bearer token; any non-2xx answer is a failure. */
export function httpSmsSender(options: HttpSmsOptions): SmsSender {
  const doFetch = options.fetch ?? fetch
  return {
    async send(phone, code) {
      const res = await doFetch(options.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(options.token ? { authorization: `Bearer ${options.token}` } : {}) },
        body: JSON.stringify({ phone, code }),
        signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
      })
      if (!res.ok) throw new Error(`SMS gateway answered HTTP ${res.status}`)
    },
  }
}

export function smsSenderFromEnv(env: NodeJS.ProcessEnv): SmsSender {
  return env.SMS_HTTP_URL ? httpSmsSender({ url: env.SMS_HTTP_URL, token: env.SMS_HTTP_TOKEN }) : consoleSmsSender()
}
