/** How the stores get the pay platform (H5): loaded on first use, with the host bridge under it, out of the chunk every page loads. */
import type { PayPlatform } from './types'

export const loadPayPlatform = (): Promise<PayPlatform> => import('./index').then((m) => m.payPlatform)
