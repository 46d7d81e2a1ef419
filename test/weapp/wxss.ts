/**
 * Reads WXSS selectors for the static checks of dist/weapp: which ones use what WeChat does not
 * take (the universal selector, attribute selectors, ids and tag names where only classes are
 * allowed). A small reader of our own: WeChat's WXSS compiler is not in miniprogram-ci's npm package.
 */
import postcss from 'postcss'

export interface SelectorParts {
  universal: boolean
  attribute: boolean
  id: boolean
  tags: string[]
}

/** The parts of one selector (`.a > view::after`, `[dir=rtl] .b`, `.c *`). */
export function selectorParts(selector: string): SelectorParts {
  // Escaped characters (`.w-1\/2`) and quoted strings are never selector syntax.
  let s = selector.replace(/\\./g, '_').replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'/g, '""')
  const attribute = /\[/.test(s)
  s = s.replace(/\[[^\]]*\]/g, '')
  // Pseudo-classes and elements, with their arguments (`:not(.x)` keeps `.x` to read).
  for (let depth = 0; depth < 3; depth++) s = s.replace(/::?[\w-]+(\(([^()]*)\))?/g, (_m, _args, inner: string | undefined) => (inner ? ` ${inner} ` : ''))
  const universal = /\*/.test(s)
  const id = /#[\w-]/.test(s)
  s = s.replace(/[.#][\w-]+/g, ' ').replace(/\*/g, ' ')
  // Numbers left over from `:nth-child(2n+1)` are not tags.
  const tags = s.split(/[\s>+~,()]+/).filter((t) => /^[a-zA-Z][\w-]*$/.test(t) && !/^(n|odd|even|of)$/.test(t))
  return { universal, attribute, id, tags }
}

export interface WxssRule {
  selector: string
  parts: SelectorParts
}

/** Every selector of a stylesheet, but keyframe steps (`from`, `50%`). */
export function wxssSelectors(css: string): WxssRule[] {
  const rules: WxssRule[] = []
  postcss.parse(css).walkRules((rule) => {
    if (rule.parent?.type === 'atrule' && /keyframes$/i.test((rule.parent as postcss.AtRule).name)) return
    for (const selector of rule.selectors) rules.push({ selector, parts: selectorParts(selector) })
  })
  return rules
}

/** `@import` targets and `url()` references of a stylesheet. */
export function wxssReferences(css: string): { imports: string[]; urls: string[] } {
  const imports: string[] = []
  const urls: string[] = []
  const root = postcss.parse(css)
  root.walkAtRules('import', (at) => {
    imports.push(
      at.params
        .replace(/^url\(|\)$/g, '')
        .replace(/^["']|["']$/g, '')
        .trim(),
    )
  })
  root.walkDecls((decl) => {
    for (const m of decl.value.matchAll(/url\(\s*(["']?)([^"')]*)\1\s*\)/g)) urls.push(m[2])
  })
  return { imports, urls }
}
