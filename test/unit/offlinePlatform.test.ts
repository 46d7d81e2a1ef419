/**
 * The mini-program's offline storage on a fake user file system: one file a key under
 * USER_DATA_PATH/offline with safe names, its room budget (OfflineQuotaError), kept photos, clear.
 */
import type Taro from '@tarojs/taro'
import { fileNameOf, keyOfFileName, weappOfflineStorage } from '../../src/platform/offline/userFiles'
import { OfflineQuotaError } from '../../src/platform/offline/types'

/** The file-system manager's calls this storage uses, over a map of path → text. */
function fakeFs(files: Map<string, string>) {
  const later = (fn: () => void) => setImmediate(fn)
  const fs = {
    mkdir: (o: any) => later(() => o.success({})),
    readdir: (o: any) =>
      later(() => {
        const head = `${o.dirPath}/`
        const names = new Set(
          Array.from(files.keys())
            .filter((p) => p.startsWith(head))
            .map((p) => p.slice(head.length).split('/')[0]),
        )
        o.success({ files: Array.from(names) })
      }),
    stat: (o: any) => later(() => (files.has(o.path) ? o.success({ stats: { size: Buffer.byteLength(files.get(o.path)!) } }) : o.fail({ errMsg: 'stat:fail no such file' }))),
    readFile: (o: any) => later(() => (files.has(o.filePath) ? o.success({ data: files.get(o.filePath) }) : o.fail({ errMsg: 'readFile:fail no such file' }))),
    writeFile: (o: any) =>
      later(() => {
        files.set(o.filePath, o.data)
        o.success({})
      }),
    unlink: (o: any) =>
      later(() => {
        files.delete(o.filePath)
        o.success({})
      }),
    copyFile: (o: any) =>
      later(() => {
        files.set(o.destPath, files.get(o.srcPath) ?? '')
        o.success({})
      }),
  }
  return () => fs as unknown as Taro.FileSystemManager
}

const ROOT = 'wxfile://usr/offline'

describe('offline storage of the mini-program (user file system)', () => {
  it('names files safely and reads the key back from the name', () => {
    for (const key of ['map:7:3:markers:12', 'outbox:2026-11-26T10:00:00.000Z', '地图/图层 1', 'a~b.c']) {
      const name = fileNameOf(key)
      expect(name).toMatch(/^[A-Za-z0-9_\-~]+\.json$/)
      expect(keyOfFileName(name)).toBe(key)
    }
  })

  it('keeps each value in its own file and survives a new instance on the same files (a restart)', async () => {
    const files = new Map<string, string>()
    const first = weappOfflineStorage(ROOT, 1024 * 1024, fakeFs(files))
    await first.set('map:7:3:layers', [{ id: 1, name: '网点' }])
    await first.set('outbox:1', { kind: 'marker' })
    expect(files.has(`${ROOT}/${fileNameOf('map:7:3:layers')}`)).toBe(true)
    const second = weappOfflineStorage(ROOT, 1024 * 1024, fakeFs(files))
    expect(await second.get('map:7:3:layers')).toEqual([{ id: 1, name: '网点' }])
    expect((await second.keys()).sort()).toEqual(['map:7:3:layers', 'outbox:1'])
    expect(await second.usage()).toBe(Buffer.byteLength(JSON.stringify([{ id: 1, name: '网点' }])) + Buffer.byteLength(JSON.stringify({ kind: 'marker' })))
    await second.remove('outbox:1')
    expect(await second.keys()).toEqual(['map:7:3:layers'])
  })

  it('refuses a value past its budget with OfflineQuotaError, counting UTF-8 bytes, and keeps what was there', async () => {
    const files = new Map<string, string>()
    const storage = weappOfflineStorage(ROOT, 100, fakeFs(files))
    await storage.set('a', 'x'.repeat(40))
    // 30 Chinese characters are 90 bytes in UTF-8.
    await expect(storage.set('b', '字'.repeat(30))).rejects.toBeInstanceOf(OfflineQuotaError)
    expect(await storage.get('a')).toBe('x'.repeat(40))
    expect(await storage.get('b')).toBeUndefined()
  })

  it('copies a picked photo into its own folder, gives its path, drops it, and clear forgets everything', async () => {
    const files = new Map<string, string>([['wxfile://tmp/photo.jpg', 'JPEGDATA']])
    const storage = weappOfflineStorage(ROOT, 1024, fakeFs(files))
    const ref = await storage.keepFile('wxfile://tmp/photo.jpg')
    expect(ref.startsWith(`${ROOT}/files/`)).toBe(true)
    expect(await storage.fileUrl(ref)).toBe(ref)
    expect(files.get(ref)).toBe('JPEGDATA')
    expect(await storage.keys()).toEqual([])
    await storage.dropFile(ref)
    expect(files.has(ref)).toBe(false)
    await storage.set('map:7:3:layers', [])
    await storage.keepFile('wxfile://tmp/photo.jpg')
    await storage.clear()
    expect(Array.from(files.keys()).filter((p) => p.startsWith(ROOT))).toEqual([])
    expect(await storage.usage()).toBe(0)
  })
})
