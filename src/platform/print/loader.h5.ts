/** How the stores get the print platform (H5): loaded on first use, out of the chunk every page loads. */
import type { PrintPlatform } from './types'

export const loadPrintPlatform = (): Promise<PrintPlatform> => import('./index').then((m) => m.printPlatform)
