/** Every user-visible message, in Chinese as SPEC.md quotes it; tests and code share these. */
import { MARKER_KIND, isLine } from './markerKinds'

export const MSG = {
  // SPEC 8
  loggedOut: '您已退出登录，即将进入登录页面',
  systemError: '系统错误，请稍后再试',
  networkError: '网络错误，请检查设备网络',
  genericError: 'Error',
  mapInitError: '地图初始化错误，请刷新页面重试',
  cameraError: '相机拍照错误，请稍后再试',
  permissionError: '权限错误',
  copyOk: '复制成功',
  copyFailed: '复制失败，请稍后再试',
  mandatoryItem: (item: string) => `${item}必须授权，无法取消`,

  // SPEC 5
  shareNameRequired: '请填写分享名称',
  shareDataRequired: '请选择要分享的数据',
  sharePwdRequired: '请输入分享密码',
  shareExpRequired: '请设置过期时间',
  resetRemarkRequired: '请填写重置会员备注信息',

  // Sign in and account (our wording where SPEC is silent)
  phoneRequired: '请输入手机号',
  phoneInvalid: '请输入正确的手机号',
  codeRequired: '请输入验证码',
  codeInvalidFormat: '请输入6位数字验证码',
  codeWrong: '验证码错误',
  codeExpired: '验证码已过期，请重新获取',
  codeTooManyTries: '验证码错误次数过多，请重新获取',
  codeSendTooFrequent: (seconds: number) => `发送过于频繁，请${seconds}秒后再试`,
  codeDailyCap: '今日验证码发送次数已达上限，请明天再试',
  codeSent: '验证码已发送',
  codeSendFailed: '验证码发送失败，请稍后再试',
  /** The SMS provider's own flow control (per minute or hour), beyond the server's cooldown. */
  smsTooFrequent: '发送过于频繁，请稍后再试',
  smsPhoneUnreachable: '该手机号无法接收短信，请检查号码后重试',
  loginOk: '登录成功',
  nicknameRequired: '请输入昵称',
  nicknameTooLong: (max: number) => `昵称最多${max}个字`,
  groupNameRequired: '请输入团队名称',
  groupNameTooLong: (max: number) => `团队名称最多${max}个字`,
  inviteCodeRequired: '请输入邀请码或邀请链接',
  inviteCodeInvalid: '邀请码无效或已过期',
  badRequest: '请求参数错误',
  notFound: '数据不存在',
  forbidden: '没有权限执行此操作',
  noGroup: '请先创建或加入团队',
  alreadyInGroup: '您已拥有自己的地图',
  accountDeleted: '账号已注销',
  savedOk: '保存成功',
  logoffConfirm: '注销后账号及您创建的地图数据将被永久删除且无法恢复，确定注销吗？',
} as const

/** Map data: geometry, layers, markers, fields, notes, import/export, uploads. */
export const MAP_MSG = {
  basemapFailed: '底图加载失败，标注仍可查看和编辑',
  vertexInvalid: (i: number) => `第${i}个坐标格式错误，应为"经度,纬度"`,
  lngRange: (i: number) => `第${i}个坐标的经度需在-180到180之间`,
  latRange: (i: number) => `第${i}个坐标的纬度需在-90到90之间`,
  pointNeedsOne: '点标注需要且只需要1个坐标',
  lineNeedsTwo: '线标注至少需要2个点',
  polygonNeedsThree: '面标注至少需要3个点',
  rectangleNeedsTwo: '矩形需要2个对角点',
  rectangleDegenerate: '矩形的两个对角点不能在同一条横线或竖线上',
  circleNeedsCentre: '圆需要1个圆心坐标',
  circleNeedsRadius: '圆的半径需大于0',
  multiPartNeedsThree: (part: number) => `多面第${part}部分至少需要3个点`,
  holesOnlyInAreas: '只有多边形和多面可以有洞',
  holeNeedsThree: (hole: number) => `第${hole}个洞至少需要3个点`,
  holeOutside: (hole: number) => `第${hole}个洞不在面内`,
  pointsRequired: '请在地图上选择位置',
  markerTypeInvalid: '不支持的标注类型',
  markerKindMismatch: '该图层不能添加这种类型的标注',
  markerNameRequired: '请输入标注名称',
  markerNameTooLong: (max: number) => `标注名称最多${max}个字`,
  markerLimit: (limit: number) => `标注数量已达上限（${limit}个），请升级会员后继续添加`,
  layerNameRequired: '请输入图层名称',
  layerNameTooLong: (max: number) => `图层名称最多${max}个字`,
  folderCannotHoldMarkers: '文件夹不能直接添加标注，请选择图层',
  parentMustBeFolder: '只能放在文件夹中',
  cannotMoveIntoItself: '不能移动到自身或其子文件夹中',
  layerTypeLocked: '图层中已有标注，不能修改图层类型',
  fieldNameRequired: '请输入字段名称',
  fieldNameDuplicate: '字段名称已存在',
  fieldChoicesRequired: '选项字段至少需要1个选项',
  fieldRequired: (name: string) => `请填写${name}`,
  fieldNumber: (name: string) => `${name}需为数字`,
  fieldDate: (name: string) => `${name}需为日期（YYYY-MM-DD）`,
  fieldPhone: (name: string) => `${name}需为手机号或电话号码`,
  fieldChoice: (name: string) => `${name}的选项无效`,
  noteEmpty: '请输入备注内容或添加照片',
  uploadTooLarge: (limit: string) => `文件不能超过${limit}`,
  storageFull: '存储空间已满，请升级会员后继续上传',
  uploadType: '只能上传图片',
  uploadFailed: '上传失败，请重试',
  importEmpty: '文件中没有可导入的数据',
  importUnreadable: '无法读取文件，请检查文件格式',
  importRowsInvalid: (n: number) => `有${n}行数据有误，未导入任何数据`,
  importOk: (n: number) => `成功导入${n}条数据`,
  restoreOk: '已恢复',
  restoreNotPossible: '该记录无法恢复',
  deleteFolderConfirm: (layers: number, markers: number) => `将同时删除其中的${layers}个图层和${markers}个标注，可在操作日志中恢复。确定删除吗？`,
  folderTypeLocked: '文件夹中还有图层，不能修改类型',
  folderCannotBeDefault: '文件夹不能设为默认图层',
  layerOptsInvalid: '图层权限设置无效',
  notGroupMember: '该用户不是团队成员',
  pageSizeTooLarge: (max: number) => `每页最多${max}条`,
  bboxInvalid: '搜索范围无效',
  layerTypeRequired: '请选择图层类型',
} as const

/** Map data screens (client): confirmations and notices of the layer panel, /addinfo, /fields and /oplog. */
export const MAP_UI_MSG = {
  /** The 地图样式 sheet's choice of tiles (keyless H5 map), and the tile-failure notice's action that opens it. */
  tileSourceTitle: '底图来源',
  switchTiles: '切换底图',
  deleteLayerConfirm: (name: string) => `确定删除"${name}"吗？可在操作日志中恢复。`,
  deleteMarkerConfirm: (name: string) => `确定删除标注"${name}"吗？可在操作日志中恢复。`,
  deleteNoteConfirm: '确定删除这条备注吗？',
  deleteFieldConfirm: (name: string) => `确定删除字段"${name}"吗？标注中该字段的内容将不再显示。`,
  restoreConfirm: (name: string) => `确定恢复"${name}"吗？`,
  deletedOk: '已删除',
  movedOk: '已移动',
  defaultLayerSet: (name: string) => `已将"${name}"设为默认图层`,
  layerRequired: '请选择图层',
  noLayerForKind: '没有可以添加这种标注的图层，请先在图层面板中新建图层',
  coordInvalid: '坐标格式错误，应为"经度,纬度"，例如 116.397428,39.90923',
  locateFailed: '无法获取当前位置，请检查定位权限后重试',
  /** Location refused and no setting can be opened from the page (a phone browser). */
  locationPermission: '团队地图需要使用您的位置来显示您所在的地点和签到。请允许使用定位后重试。',
  locationSettingHint: '请在浏览器或系统设置中允许本网站使用定位，然后重试',
  noteTooLong: (max: number) => `备注最多${max}个字`,
  fieldNameTooLong: (max: number) => `字段名称最多${max}个字`,
  fieldOptionsTooMany: (max: number) => `选项最多${max}个`,
  importFormatUnknown: '只支持导入 GeoJSON、KML、KMZ、GPX、Excel（.xlsx）、Shapefile（.zip）、CSV 和 TXT 文件',
  importNoLayer: '请选择要导入的图层',
  exportSaved: (name: string) => `已导出文件 ${name}`,
  fileSaveFailed: '文件保存失败，请稍后再试',
  filePickCancelled: '未选择文件',
  searchEmpty: '没有找到相关标注',
  searchKwRequired: '请输入搜索关键字',
  iconNameTooLong: (max: number) => `图标名称最多${max}个字`,
  deleteIconConfirm: (name: string) => `确定删除图标"${name}"吗？已使用该图标的标注仍会显示它。`,
} as const

/** Map data files, uploads, fields, title styles and icons (server side of import/export and uploads). */
export const MAP_IO_MSG = {
  importGeometryMissing: '缺少坐标数据',
  importGeometryUnsupported: (type: string) => `不支持的几何类型：${type}`,
  importColumnsMissing: 'CSV文件需要经度、纬度两列（lng/lat 或 经度/纬度）或WKT列',
  wktInvalid: 'WKT格式错误',
  importTooLarge: (limit: string) => `导入文件不能超过${limit}`,
  importTooManyRows: (max: number) => `一次最多导入${max}条数据，请将文件拆分后分批导入`,
  fieldKindInvalid: '不支持的字段类型',
  fieldOrderChanged: '字段列表已变化，请刷新后重试',
  colorInvalid: '颜色格式错误，应为#RRGGBB',
  iconNameRequired: '请输入图标名称',
  iconUrlRequired: '请上传图标图片',
  uploadNoFile: '请选择要上传的文件',
} as const

/** The map engine: drawing hints and loader errors. */
export const MAP_ENGINE_MSG = {
  /** What to tap next while drawing a marker of this kind, given the vertices of the current part. */
  drawHint: (type: number, n: number): string => {
    switch (type) {
      case MARKER_KIND.point:
        return '点击地图放置标注'
      case MARKER_KIND.rectangle:
        return n === 0 ? '点击地图放置矩形的第一个角' : '点击地图放置矩形的对角'
      case MARKER_KIND.circle:
        return n === 0 ? '点击地图放置圆心' : '点击地图确定半径'
      case MARKER_KIND.solidLine:
      case MARKER_KIND.dashedLine:
        return n < 2 ? `点击地图添加线的顶点（已添加${n}个，至少2个）` : `已添加${n}个顶点，继续点击或点"完成"`
      default:
        return n < 3 ? `点击地图添加面的顶点（已添加${n}个，至少3个）` : `已添加${n}个顶点，继续点击或点"完成"`
    }
  },
  drawNotEnough: (type: number): string =>
    isLine(type) ? '线至少需要2个顶点' : type === MARKER_KIND.rectangle ? '矩形需要两个对角点' : type === MARKER_KIND.circle ? '请先确定圆心和半径' : '面至少需要3个顶点',
  partNeedsThree: '当前部分至少需要3个顶点',
  editHint: '拖动顶点，或点选一个顶点后点击地图上的新位置',
  editTapTarget: '点击地图上的新位置，放置选中的顶点',
  /** A point has no vertices to pick: its pin is dragged, or a tap on the map puts it there. */
  editPointHint: '拖动标注到新位置，或点击地图上的新位置',
  locationInvalid: '位置坐标无效',
  membersNone: '还没有成员上报位置',
  loaderKeyMissing: '地图Key未配置',
  loaderMixedKeys: '地图Key不一致',
  loaderMixedVersions: '地图版本不一致',
  loaderLocaMismatch: '地图与Loca版本不匹配',
} as const

/** Teams on the phone: the team, department and role screens, module gating, the group refresh. */
export const TEAM_UI_MSG = {
  /** SPEC 4/8: a mandatory tree item cannot be unticked. */
  mandatory: (item: string): string => `${item}必须授权，无法取消`,
  /** A page whose module the user does not hold, opened by a direct address. */
  moduleMissing: (module: string): string => `您没有「${module}」模块的权限，请联系团队管理员开通`,
  /** A VIP module on the free tier: no role can grant it until the group upgrades. */
  moduleLocked: (module: string): string => `「${module}」是会员功能，请升级会员后使用`,
  /** The module is held but not the group action the page or call needs within it. */
  actionMissing: (action: string): string => `您没有「${action}」的权限，请联系团队管理员开通`,
  /** SPEC 4: the group data changed on the server (another admin changed the team). */
  dataRefreshed: '团队数据已更新',
  departmentNameRequired: '请输入部门名称',
  departmentNameTooLong: (max: number): string => `部门名称不能超过${max}个字`,
  roleNameRequired: '请输入角色名称',
  roleNameTooLong: (max: number): string => `角色名称不能超过${max}个字`,
  nicknameRequired: '请输入成员姓名',
  saved: '已保存',
  removed: '已移除',
  copied: '复制成功',
  copyFailed: '复制失败，请稍后再试',
  inviteSent: '已发送邀请，对方同意后即加入团队',
  joinedAtOnce: '已加入团队',
  quitConfirm: (group: string): string => `确定退出「${group}」吗？退出后将切换到您自己的地图。`,
  removeConfirm: (name: string): string => `确定将「${name}」移出团队吗？移出后对方将立即无法查看团队数据。`,
  deleteDepartmentConfirm: (name: string): string => `确定删除部门「${name}」及其下级部门吗？其中的成员将不再属于任何部门。`,
  deleteRoleConfirm: (name: string): string => `确定删除角色「${name}」吗？`,
  switched: (group: string): string => `已切换到「${group}」`,
} as const

/** Teams on the server: members, invites, the join limit, departments, roles, layer authorisation. */
export const TEAM_MSG = {
  /** join_limit counts collaborators (the administrator not included); 0 is the free plan's. */
  joinLimit: (limit: number): string => (limit > 0 ? `协作成员已达上限（${limit}人，不含管理员，含待加入的成员），请升级会员或移除成员后再试` : '免费版不能添加协作成员，请升级会员后再邀请'),
  adminCannotQuit: '您是团队管理员，不能退出自己的团队',
  cannotRemoveAdmin: '不能移除团队管理员',
  cannotRemoveSelf: '不能移除自己，如需离开请退出团队',
  adminIsAlwaysManager: '团队管理员始终拥有管理权限，无需设置',
  alreadyMember: '该手机号已是团队成员',
  memberNotFound: '该成员不存在',
  notMemberOfGroup: '您不是该团队的成员',
  pendingNotFound: '该待加入记录不存在',
  departmentNotFound: '部门不存在',
  departmentParentNotFound: '上级部门不存在',
  departmentCycle: '不能移动到自身或其下级部门中',
  departmentNameRequired: TEAM_UI_MSG.departmentNameRequired,
  departmentNameTooLong: TEAM_UI_MSG.departmentNameTooLong,
  roleNotFound: '角色不存在',
  roleNameRequired: TEAM_UI_MSG.roleNameRequired,
  roleNameTooLong: TEAM_UI_MSG.roleNameTooLong,
  memberNameRequired: TEAM_UI_MSG.nicknameRequired,
  moduleIdsInvalid: '模块权限设置无效',
  moduleTypeInvalid: '模块类型无效',
  authTargetRequired: '请选择要授权的成员或部门',
  authTargetBoth: '一次只能授权给一个成员或一个部门',
} as const
