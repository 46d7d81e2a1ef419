/**
 * How the stores get the file adapter (the mini-program): a static import, as for
 * payment (a dynamic import in code every page shares confuses Taro's weapp subpackage split).
 */
import { files, type FileAdapter } from './index.weapp'

export const loadFileAdapter = (): Promise<FileAdapter> => Promise.resolve(files)
