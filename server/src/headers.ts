/**
 * Headers on every answer: no content sniffing, and no full URL (share ids, /web targets) in the
 * Referer sent to other sites. API answers are never stored by the browser or a proxy: logins and
 * user info carry the token, member lists carry phones, and errors are answers like any other.
 * The pages' Content-Security-Policy depends on the build and is set where they are served (static.ts).
 * With hstsMaxAge (HSTS_MAX_AGE), answers to HTTPS requests (behind TLS: the protocol the trusted
 * proxy forwards, TRUST_PROXY) tell the browser to use HTTPS only for that long.
 */
import type { FastifyInstance } from 'fastify'

export function registerSecurityHeaders(app: FastifyInstance, options: { hstsMaxAge?: number } = {}): void {
  // onSend runs for every reply, those of the not-found and error handlers included.
  app.addHook('onSend', async (request, reply, payload) => {
    reply.header('x-content-type-options', 'nosniff')
    // A browser ignores the header over plain HTTP, where anyone on the path could have set it.
    if (options.hstsMaxAge && request.protocol === 'https') reply.header('strict-transport-security', `max-age=${options.hstsMaxAge}`)
    reply.header('referrer-policy', 'strict-origin-when-cross-origin')
    const path = request.url.split('?')[0]
    // API answers are never cached, except a picture that says how long it may be kept (share cards).
    if ((path === '/api' || path.startsWith('/api/')) && !(reply.getHeader('content-type') === 'image/png' && reply.hasHeader('cache-control'))) reply.header('cache-control', 'no-store')
    return payload
  })
}
