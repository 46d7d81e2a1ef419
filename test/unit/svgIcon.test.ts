import { inlineSvgOf } from '../../src/domain/svgIcon'

// NutUI's icons come as data: SVG URLs painted through a CSS mask: the shape in the text colour,
// whatever colours the file names. Drawn inline on H5, they must look the same.
const dataUrl = (svg: string) => `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`

describe('an icon drawn inline from its data: SVG', () => {
  it('keeps the view box and paints every filled and stroked part in the current colour, as the mask did', () => {
    const svg = inlineSvgOf(
      dataUrl(
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><path fill="#171a26" d="M1 1h2v2z"/><path fill="none" stroke="#FA2C19" d="M4 4h2"/><path fill="undefined" d="M5 5h1"/></svg>',
      ),
    )
    expect(svg).toEqual({
      viewBox: '0 0 24 24',
      inner: '<path fill="currentColor" d="M1 1h2v2z"/><path fill="none" stroke="currentColor" d="M4 4h2"/><path fill="currentColor" d="M5 5h1"/>',
    })
  })

  it('reads text beyond ASCII in the file, and gives the same drawing for the same icon', () => {
    const url = dataUrl('<svg viewBox="0 0 8 8"><title>搜索</title><path d="M0 0h8v8z"/></svg>')
    const svg = inlineSvgOf(url)
    expect(svg?.inner).toBe('<title>搜索</title><path d="M0 0h8v8z"/>')
    expect(inlineSvgOf(url)).toBe(svg)
  })

  it('draws nothing for what is not a base64 SVG, so the caller keeps the element without a drawing', () => {
    expect(inlineSvgOf('https://example.com/icon.svg')).toBeNull()
    expect(inlineSvgOf(dataUrl('<div>not an svg</div>'))).toBeNull()
  })
})
