/** Registers the data list store (imported by /datalist; see lazyStores.ts). */
import { DataListStore } from './DataListStore'
import { registerStores } from './lazyStores'

export const dataListStores = registerStores({
  dataList: (root) => new DataListStore(root),
})
