/**
 * Serves the H5 build. Paths that are not files get index.html so that the app's browser-mode
 * routes (/map, /share/view ...) load; /api/* never does and answers 404 JSON instead.
 */
import fastifyStatic from '@fastify/static'
import type { FastifyInstance } from 'fastify'
import { stat } from 'node:fs/promises'
import { resolve, sep } from 'node:path'

export async function registerStatic(app: FastifyInstance, dir: string): Promise<void> {
  const root = resolve(dir)
  await app.register(fastifyStatic, { root, serve: false })
  app.get('/*', async (request, reply) => {
    const path = request.url.split('?')[0]
    if (path === '/api' || path.startsWith('/api/')) return reply.callNotFound()
    const file = await existingFile(root, path)
    return reply.sendFile(file ?? 'index.html')
  })
}

/** The path relative to root when it names a file inside root, else null. */
async function existingFile(root: string, urlPath: string): Promise<string | null> {
  let decoded: string
  try {
    decoded = decodeURIComponent(urlPath)
  } catch {
    return null
  }
  const full = resolve(root, '.' + decoded)
  if (!full.startsWith(root + sep)) return null
  try {
    return (await stat(full)).isFile() ? full.slice(root.length + 1) : null
  } catch {
    return null
  }
}
