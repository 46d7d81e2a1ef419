/**
 * The chunked offline copy of a layer's markers: which chunks a page of /api/marker/getlist reads
 * when the copy answers it, and which chunk keys belong to a copy no longer current.
 */
import { chunkKeys, pageSlices, savedLayerIds, snapshotKeys, staleChunkKeys } from '../../src/domain/offline'

const k = snapshotKeys(7, 3)

/** The markers a page gets, as [layer, index in the layer] pairs, from the slices. */
function pageItems(copies: { count: number; size: number }[], pageindex: number, pagesize: number): string[] {
  return pageSlices(copies, pageindex, pagesize).slices.flatMap((s) => Array.from({ length: s.to - s.from }, (_, i) => `${s.layer}:${s.chunk * copies[s.layer].size + s.from + i}`))
}

/** The same page cut from the whole list, as the server pages it. */
function expected(copies: { count: number }[], pageindex: number, pagesize: number): string[] {
  const all = copies.flatMap((c, layer) => Array.from({ length: c.count }, (_, i) => `${layer}:${i}`))
  return all.slice((pageindex - 1) * pagesize, pageindex * pagesize)
}

describe('pageSlices', () => {
  it('gives each page of the saved layers exactly the markers the whole list would, across chunk and layer edges', () => {
    const copies = [
      { count: 2500, size: 1000 },
      { count: 0, size: 1000 },
      { count: 7001, size: 1000 },
      { count: 3, size: 5 },
    ]
    for (const pagesize of [5000, 1000, 777, 50]) {
      const pages = Math.ceil(9504 / pagesize) + 1
      for (let page = 1; page <= pages; page++) expect(pageItems(copies, page, pagesize)).toEqual(expected(copies, page, pagesize))
    }
    expect(pageSlices(copies, 1, 5000).total).toBe(9504)
  })

  it('reads each chunk of a page once', () => {
    const { slices } = pageSlices([{ count: 12000, size: 1000 }], 2, 5000)
    expect(slices.map((s) => s.chunk)).toEqual([5, 6, 7, 8, 9])
  })
})

describe('chunk keys', () => {
  it('names the chunks of a copy by its stamp, and the layer list counts the layer once, not its chunks', () => {
    const keys = chunkKeys(k, 12, { stamp: 'b', count: 2001, size: 1000 })
    expect(keys).toEqual([`${k.markers(12)}@b.0`, `${k.markers(12)}@b.1`, `${k.markers(12)}@b.2`])
    const held = [k.markers(12), ...keys, `${k.markers(12)}@a.0`, `${k.markers(120)}@c.0`, k.markers(120), k.layers]
    expect(savedLayerIds(held, k).sort((a, b) => a - b)).toEqual([12, 120])
    expect(staleChunkKeys(held, k, 12, 'b')).toEqual([`${k.markers(12)}@a.0`])
    expect(staleChunkKeys(held, k, 12, null)).toEqual([...keys, `${k.markers(12)}@a.0`])
  })
})
