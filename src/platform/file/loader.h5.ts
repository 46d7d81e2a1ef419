/** How the stores get the file adapter (H5): loaded on first use, out of the chunk every page loads. */
import type { FileAdapter } from './types'

export const loadFileAdapter = (): Promise<FileAdapter> => import('./index').then((m) => m.files)
