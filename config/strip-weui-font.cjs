/**
 * Taro's H5 component styles inline WeUI's icon font (about 3 KB gzip) for its native <Icon>,
 * <Checkbox> and <Radio>. This app draws those with NutUI and never uses Taro's, so the font
 * only weighed on every page's first load (the /login budget of DESIGN 7): its @font-face goes.
 */
module.exports = function stripWeuiFont(source) {
  return source.replace(/@font-face\{[^}]*font-family:weui;[^}]*\}/g, '')
}
