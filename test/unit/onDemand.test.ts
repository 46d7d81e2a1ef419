import type { ComponentType } from 'react'
import { onDemandPart } from '../../src/hooks/useOnDemand'

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
})
