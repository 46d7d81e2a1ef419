/** @jest-environment jsdom */
import { act, renderHook } from '@testing-library/react'
import type { ComponentType } from 'react'
import { onDemandPart, useOnDemand } from '../../src/hooks/useOnDemand'

// The map's panels load on demand; without network (and no service worker copy) a load fails.
// The user then taps again: the panel must open once the code can be fetched, not stay broken.
describe('a part of a page loaded on demand', () => {
  const Panel: ComponentType<object> = () => null

  it('loads its code once, however many opens ask for it at the same time', async () => {
    const importer = jest.fn(() => Promise.resolve(Panel))
    const part = onDemandPart(importer)
    expect(part.current).toBeNull()
    const [a, b] = await Promise.all([part.load(), part.load()])
    expect(a).toBe(Panel)
    expect(b).toBe(Panel)
    expect(await part.load()).toBe(Panel)
    expect(part.current).toBe(Panel)
    expect(importer).toHaveBeenCalledTimes(1)
  })

  it('after a failed load shows nothing, and the next open loads again', async () => {
    const importer = jest.fn<Promise<ComponentType<object>>, []>().mockRejectedValueOnce(new Error('ChunkLoadError')).mockResolvedValueOnce(Panel)
    const part = onDemandPart(importer)
    expect(await part.load()).toBeNull()
    expect(part.current).toBeNull()
    expect(await part.load()).toBe(Panel)
    expect(part.current).toBe(Panel)
    expect(importer).toHaveBeenCalledTimes(2)
  })

  // A closed panel whose code came in ahead shows nothing: rendering the layer panel's tree and dialogs
  // while a large map was still loading was a long task of its own.
  it('loaded ahead a while after the page is ready, it renders only from its first open on', async () => {
    jest.useFakeTimers()
    try {
      const importer = jest.fn(() => Promise.resolve(Panel))
      const part = onDemandPart(importer)
      const { result, rerender } = renderHook(({ wanted, ready }) => useOnDemand(part, wanted, ready, 1500), { initialProps: { wanted: false, ready: false } })
      rerender({ wanted: false, ready: true })
      await act(async () => {
        jest.advanceTimersByTime(1499)
      })
      expect(importer).not.toHaveBeenCalled()
      await act(async () => {
        jest.advanceTimersByTime(1)
      })
      expect(importer).toHaveBeenCalledTimes(1)
      expect(part.current).toBe(Panel)
      expect(result.current).toBeNull()
      rerender({ wanted: true, ready: true })
      expect(result.current).toBe(Panel)
      // Closed again it stays rendered, to play its closing animation and keep what it holds.
      rerender({ wanted: false, ready: true })
      expect(result.current).toBe(Panel)
      expect(importer).toHaveBeenCalledTimes(1)
    } finally {
      jest.useRealTimers()
    }
  })
})
