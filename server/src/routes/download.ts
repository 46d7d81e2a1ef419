/**
 * GET /download (SPEC 1 "a mobile app download page"): a small, self-contained mobile HTML
 * page rendered here rather than by the app (no SPEC route; people reach it from a link or a QR
 * code, often inside WeChat): the brand of the system config and the newest Android and HarmonyOS
 * releases of app_releases with their notes and a download button. WeChat's in-app browser blocks
 * APK downloads, so there the page is covered by a hint to open it in the browser. No scripts and
 * no external assets (the CSP says so); every text from the database is escaped.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { DOWNLOAD_PATH } from '../../../src/domain/distribution'
import { downloadPageHtml } from '../services/download'
import type { AppDeps } from './define'

export function downloadRoutes(app: FastifyInstance, deps: AppDeps): void {
  const { db } = deps
  const handler = async (request: FastifyRequest, reply: FastifyReply) => {
    const html = await downloadPageHtml(db.kysely, request.headers['user-agent'])
    return reply
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-cache')
      .header('vary', 'User-Agent')
      .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'self'")
      .send(html)
  }
  // Exact paths: the H5 build's fallback (static.ts, GET /*) answers every other GET.
  app.get(DOWNLOAD_PATH, handler)
  app.get(`${DOWNLOAD_PATH}/`, handler)
}
