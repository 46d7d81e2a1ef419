/**
 * How the stores get the pay platform (the mini-program): a static import. A dynamic
 * import in the module every page shares confuses Taro's weapp subpackage split (a subpackage then
 * asks for a module id the main package never defines), and the weapp code is small anyway.
 */
import { payPlatform, type PayPlatform } from './index.weapp'

export const loadPayPlatform = (): Promise<PayPlatform> => Promise.resolve(payPlatform)
