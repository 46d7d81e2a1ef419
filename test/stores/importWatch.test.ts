/** The import dialog's progress: the server's phase polled while the import runs, and 取消导入 while it can still stop. */
import { importShare } from '../../src/domain/importProgress'
import { IMPORT_UI_MSG } from '../../src/domain/importMessages'
import { IMPORT_POLL_MS, ImportWatch } from '../../src/stores/ImportWatch'
import type { ImportProgress } from '../../types/mapdata'
import { makeRoot, ok } from '../support/fakes'
import { manualScheduler } from '../support/manualScheduler'

const settle = async () => {
  for (let i = 0; i < 10; i++) await new Promise((r) => setImmediate(r))
}

function setup(cancelAnswer = true) {
  const clock = manualScheduler()
  let progress: ImportProgress | null = null
  const asked: string[] = []
  const { root } = makeRoot(
    {
      '/api/marker/import/progress': (body) => {
        asked.push(body.import_id)
        return ok(progress)
      },
      '/api/marker/import/cancel': () => ok({ cancelled: cancelAnswer }),
    },
    { scheduler: clock.scheduler },
  )
  const watch = new ImportWatch(root, 'imp-test-0001')
  return { root, watch, clock, asked, set: (p: ImportProgress | null) => (progress = p) }
}

describe('ImportWatch', () => {
  it('polls the server for its import and shows the phase with done of total', async () => {
    const { watch, clock, asked, set } = setup()
    watch.start()
    expect(watch.text).toBe(IMPORT_UI_MSG.phase(null))
    set({ phase: 'checking', done: 2000, total: 8000 })
    clock.advance(IMPORT_POLL_MS)
    await settle()
    expect(asked).toEqual(['imp-test-0001'])
    expect(watch.text).toBe('正在检查数据 2000/8000')
    expect(watch.share).toBe(importShare({ phase: 'checking', done: 2000, total: 8000 }))
    expect(watch.canCancel).toBe(true)
    set({ phase: 'writing', done: 0, total: 8000 })
    clock.advance(IMPORT_POLL_MS)
    await settle()
    // Writing is one transaction: it finishes, so no cancel is offered.
    expect(watch.canCancel).toBe(false)
    watch.stop()
    clock.advance(IMPORT_POLL_MS * 5)
    await settle()
    expect(asked).toHaveLength(2)
  })

  it('cancels while the server can stop, and says so when it is already writing', async () => {
    const a = setup(true)
    await a.watch.cancel()
    expect(a.watch.cancelled).toBe(true)
    expect(a.watch.canCancel).toBe(false)
    const b = setup(false)
    await b.watch.cancel()
    expect(b.watch.cancelled).toBe(false)
    expect(b.root.app.currentNotice?.text).toBe(IMPORT_UI_MSG.tooLateToCancel)
  })
})

describe('the progress bar', () => {
  it('moves forward through the phases and within one by done of total', () => {
    const shares = [
      null,
      { phase: 'reading', done: 0, total: 0 },
      { phase: 'geocoding', done: 5, total: 10 },
      { phase: 'checking', done: 0, total: 10 },
      { phase: 'checking', done: 10, total: 10 },
      { phase: 'writing', done: 0, total: 10 },
      { phase: 'done', done: 0, total: 0 },
    ].map((p) => importShare(p as ImportProgress | null))
    expect([...shares].sort((x, y) => x - y)).toEqual(shares)
    expect(shares.at(-1)).toBe(100)
  })
})
