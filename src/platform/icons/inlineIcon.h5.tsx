/**
 * H5 only: NutUI's icons drawn as inline <svg>. @nutui/icons-react-taro paints each icon as a CSS
 * mask of a data: SVG image, and the browser makes every such image an SVG document of its own:
 * 10-40 ms each at 4x CPU throttling in the first style pass that meets it (the map page's five
 * toolbar icons were 60 ms in one task, the sign-in button's spinner 35 ms in its tap). An inline
 * svg is two elements. config/inlineIcons.ts puts this module in place of the package's icon
 * template in the H5 build, so every NutUI icon (ours and those inside NutUI's widgets) keeps its
 * name, class, size and colour; the mini-program keeps the package's own.
 */
import { globalConfig } from '@nutui/icons-react-taro/dist/es/icons/internal.js'
import { createElement, type CSSProperties, type MouseEvent, type ReactNode } from 'react'
import { inlineSvgOf } from '../../domain/svgIcon'

interface IconProps {
  className?: string
  style?: CSSProperties
  name?: string
  color?: string
  width?: string | number
  height?: string | number
  size?: string | number
  svg64?: string
  svgSrc?: string
  children?: ReactNode
  onClick?: (e: MouseEvent) => void
  fallback?: boolean
}

/** The package's defaults, which each icon component spreads under its props. */
const defaultProps: IconProps = { className: '', style: undefined, name: '', width: '', height: '', size: '', svg64: '', svgSrc: '', onClick: () => undefined }

const px = (v: string | number) => (v === '' ? '' : Number.isNaN(Number(v)) ? String(v) : `${v}px`)

function Icon(props: IconProps) {
  const { className, style, name, color, width, height, size, svg64, children, onClick, fallback = !globalConfig.useSvg } = { ...defaultProps, ...props }
  const prefix = globalConfig.classPrefix
  const iconName = fallback ? name?.toLowerCase() : name
  const w = px(width || size || '')
  const h = px(height || size || '')
  const svg = fallback || !svg64 ? null : inlineSvgOf(svg64)
  return createElement(
    globalConfig.tag,
    {
      className: `${fallback ? globalConfig.fontClassName : ''} ${prefix} ${prefix}-${iconName} ${className}`,
      // The mask painted the element's background in the icon's shape: no background shows around the shape.
      style: { ...style, ...(svg ? { backgroundColor: 'transparent', ...(color ? { color } : {}) } : {}), ...(w ? { width: w } : {}), ...(h ? { height: h } : {}) },
      onClick: (e: MouseEvent) => onClick?.(e),
      color,
    },
    svg &&
      createElement('svg', {
        viewBox: svg.viewBox,
        width: '100%',
        height: '100%',
        fill: 'currentColor',
        style: { display: 'block' },
        'aria-hidden': true,
        dangerouslySetInnerHTML: { __html: svg.inner },
      }),
    children,
  )
}

// The names the package's icon modules import from its template: d (defaults), I (data: SVG icons), a (the
// icons some other platforms load from a URL; not H5's, kept so that every icon module finds its imports).
export { defaultProps as d, Icon as I, Icon as a }
