/**
 * How the stores get the print platform (the mini-program): a static import, as for payment (a
 * dynamic import in code every page shares confuses Taro's weapp subpackage split).
 */
import { printPlatform, type PrintPlatform } from './index.weapp'

export const loadPrintPlatform = (): Promise<PrintPlatform> => Promise.resolve(printPlatform)
