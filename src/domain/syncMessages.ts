/** Live team sync: the server's answers to a stale save or delete, the status chip, presence and the conflict sheet. */

/** What a save or delete started from an older revision is answered (ErrCode.CONFLICT). */
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

export const SYNC_MSG = {
  synced: '已同步',
  syncing: '同步中',
  offline: '离线',
  /** How many teammates have the map open besides me. */
  online: (n: number) => `${n}人在线`,
  /** Someone else has this marker's editor open. */
  editing: (names: string[]) => `${names.join('、')}正在编辑`,
  conflictTitle: '保存冲突',
  conflictIntro: '你编辑期间，其他成员修改了同一条数据。请选择要保留的内容：',
  theirs: '对方',
  mine: '我的',
  keepTheirs: '保留对方的',
  keepMine: '保留我的',
  merge: '合并保存',
  deletedTitle: '数据已被删除',
  /** The marker (or other entity) the user was editing was deleted by a teammate. */
  deleted: (what: string) => `该${what}已被他人删除`,
  recreate: '重新创建',
  discard: '放弃',
  empty: '（空）',
} as const

/** What the conflict sheet calls each kind of entity. */
export const SYNC_KIND_NAMES = {
  marker: '标注',
  note: '备注',
  layer: '图层',
  field: '字段',
  title_style: '标题样式',
} as const

/** Labels of the parts of an entity the sheet compares. */
export const SYNC_FACET_LABELS: Record<string, string> = {
  name: '名称',
  layer_id: '图层',
  geometry: '位置',
  style: '样式',
  content: '内容',
  photos: '照片',
  parent_id: '所在文件夹',
  kind: '类型',
  options: '选项',
  required: '必填',
  look: '样式',
}
