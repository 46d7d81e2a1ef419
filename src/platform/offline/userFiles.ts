/**
 * The mini-program's offline storage over a file-system manager (Taro.getFileSystemManager(), a fake
 * in tests): one file a key in `root`, kept photos under `root`/files, a budget of bytes. Free of
 * Taro's runtime so that unit tests run it on a fake file system.
 */
import type Taro from '@tarojs/taro'
import { OfflineQuotaError, type OfflineStorage } from './types'

type Fs = Taro.FileSystemManager

/** A key as a file name: percent-encoding with '~' for '%' (file names may not hold ':' or '/'). */
export function fileNameOf(key: string): string {
  return (
    encodeURIComponent(key)
      .replace(/[!'()*~.]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase())
      .replace(/%/g, '~') + '.json'
  )
}

export function keyOfFileName(name: string): string | null {
  if (!name.endsWith('.json')) return null
  try {
    return decodeURIComponent(name.slice(0, -5).replace(/~/g, '%'))
  } catch {
    return null
  }
}

/** Bytes of a string in UTF-8 (what the file takes). */
function utf8Bytes(s: string): number {
  let n = 0
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    if (c < 0x80) n += 1
    else if (c < 0x800) n += 2
    else if (c >= 0xd800 && c <= 0xdbff) {
      n += 4
      i++
    } else n += 3
  }
  return n
}

/** A file-system call with callbacks as a promise of its answer. */
function call<T>(fn: (o: { success: (res: unknown) => void; fail: (err: { errMsg?: string }) => void }) => void): Promise<T> {
  return new Promise<T>((resolve, reject) => fn({ success: (res) => resolve(res as T), fail: (err) => reject(new Error(err?.errMsg ?? 'fs:fail')) }))
}

function isFull(e: unknown): boolean {
  return /exceed|limit|storage/i.test((e as Error)?.message ?? '')
}

export function weappOfflineStorage(root: string, quotaBytes: number, fs: () => Fs): OfflineStorage {
  const filesDir = `${root}/files`
  let sizes: Promise<Map<string, number>> | null = null
  let fileSeq = Date.now()

  const mkdir = (dir: string) => call<unknown>((o) => fs().mkdir({ dirPath: dir, recursive: true, ...o })).catch(() => undefined)
  /** File name → bytes of every file held (values and kept photos), read once. */
  const index = (): Promise<Map<string, number>> => {
    sizes ??= (async () => {
      await mkdir(filesDir)
      const map = new Map<string, number>()
      for (const dir of [root, filesDir]) {
        const names = await call<{ files: string[] }>((o) => fs().readdir({ dirPath: dir, ...o })).then(
          (r) => r.files,
          () => [] as string[],
        )
        for (const name of names) {
          if (dir === root && name === 'files') continue
          const size = await call<{ stats: { size: number } }>((o) => fs().stat({ path: `${dir}/${name}`, ...o })).then(
            (r) => r.stats.size,
            () => 0,
          )
          map.set(`${dir}/${name}`, size)
        }
      }
      return map
    })()
    return sizes
  }
  const used = (map: Map<string, number>) => {
    let n = 0
    for (const v of map.values()) n += v
    return n
  }

  return {
    get: async <T>(key: string) => {
      const path = `${root}/${fileNameOf(key)}`
      const map = await index()
      if (!map.has(path)) return undefined
      const res = await call<{ data: string | ArrayBuffer }>((o) => fs().readFile({ filePath: path, encoding: 'utf8', ...o })).catch(() => null)
      if (!res || typeof res.data !== 'string') return undefined
      try {
        return JSON.parse(res.data) as T
      } catch {
        return undefined
      }
    },
    set: async (key, value) => {
      const path = `${root}/${fileNameOf(key)}`
      const raw = JSON.stringify(value)
      const bytes = utf8Bytes(raw)
      const map = await index()
      if (used(map) - (map.get(path) ?? 0) + bytes > quotaBytes) throw new OfflineQuotaError()
      try {
        await call<unknown>((o) => fs().writeFile({ filePath: path, data: raw, encoding: 'utf8', ...o }))
      } catch (e) {
        // WeChat's own limit of user files (shared with other uses) may come first.
        if (isFull(e)) throw new OfflineQuotaError()
        throw e
      }
      map.set(path, bytes)
    },
    remove: async (key) => {
      const path = `${root}/${fileNameOf(key)}`
      const map = await index()
      if (!map.has(path)) return
      await call<unknown>((o) => fs().unlink({ filePath: path, ...o })).catch(() => undefined)
      map.delete(path)
    },
    keys: async () => {
      const map = await index()
      const head = `${root}/`
      return Array.from(map.keys())
        .filter((p) => p.startsWith(head) && !p.slice(head.length).includes('/'))
        .map((p) => keyOfFileName(p.slice(head.length)))
        .filter((k): k is string => k !== null)
    },
    usage: async () => used(await index()),
    keepFile: async (localPath) => {
      const map = await index()
      const name = `${++fileSeq}-${localPath.split('/').pop() ?? 'photo'}`
      const dest = `${filesDir}/${name}`
      const size = await call<{ stats: { size: number } }>((o) => fs().stat({ path: localPath, ...o })).then(
        (r) => r.stats.size,
        () => 0,
      )
      if (used(map) + size > quotaBytes) throw new OfflineQuotaError()
      try {
        await call<unknown>((o) => fs().copyFile({ srcPath: localPath, destPath: dest, ...o }))
      } catch (e) {
        if (isFull(e)) throw new OfflineQuotaError()
        throw e
      }
      map.set(dest, size)
      return dest
    },
    // The copy's path is what <Image> and uploadFile take.
    fileUrl: async (ref) => ref,
    dropFile: async (ref) => {
      if (!ref.startsWith(`${filesDir}/`)) return
      await call<unknown>((o) => fs().unlink({ filePath: ref, ...o })).catch(() => undefined)
      ;(await index()).delete(ref)
    },
    clear: async () => {
      const map = await index()
      for (const path of Array.from(map.keys())) {
        await call<unknown>((o) => fs().unlink({ filePath: path, ...o })).catch(() => undefined)
        map.delete(path)
      }
    },
  }
}
