/**
 * How the stores get the position platform (the mini-program): a static import, as for pay: a
 * dynamic import in the module every page shares confuses Taro's weapp subpackage split.
 */
export { geoPlatform } from './index.weapp'
