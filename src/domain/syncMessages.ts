/** Live sync: what a save or delete started from an older revision is answered (ErrCode.CONFLICT). */
export const SYNC_CONFLICT_MSG = {
  markerChanged: '该标注已被他人修改',
  markerDeleted: '该标注已被他人删除',
  layerChanged: '该图层已被他人修改',
  layerDeleted: '该图层已被他人删除',
  noteChanged: '该备注已被他人修改',
  noteDeleted: '该备注已被他人删除',
  fieldChanged: '该字段已被他人修改',
  fieldDeleted: '该字段已被他人删除',
  titleStyleChanged: '该标题样式已被他人修改',
} as const
