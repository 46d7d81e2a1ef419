/**
 * PostCSS plugin for the weapp build only: drops NutUI's `[dir=rtl] ...` selectors.
 *
 * NutUI writes each right-to-left rule twice, `[dir=rtl] .x` for browsers and `.nut-rtl .x` for
 * mini-programs (its ConfigProvider sets the class there: no WeChat node carries a `dir`
 * attribute). On weapp the attribute half can never match, and WeChat's rules for custom
 * components exclude attribute selectors in components and in the pages that use them (Taro
 * renders deep trees through its own `comp` component). The `.nut-rtl` half stays. build.test.ts
 * fails if any attribute selector reaches dist/weapp.
 */
const RTL_ATTRIBUTE = /\[\s*dir\s*=\s*["']?rtl["']?\s*\]/

module.exports = () => ({
  postcssPlugin: 'teammap-weapp-drop-rtl-attribute',
  Rule(rule) {
    if (!RTL_ATTRIBUTE.test(rule.selector)) return
    const kept = rule.selectors.filter((s) => !RTL_ATTRIBUTE.test(s))
    if (kept.length === 0) rule.remove()
    else rule.selectors = kept
  },
})
module.exports.postcss = true
