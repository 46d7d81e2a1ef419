/**
 * The route table of SPEC section 2: one row per route. `page` is the Taro page that renders it,
 * or null while the issue that builds that screen has not landed (the not-found page shows then).
 * `pkg` says where the weapp build puts the page: only map, login and share view are in the main
 * package (DESIGN 7).
 */
export type Access = 'public' | 'login' | 'none'

export interface RouteDef {
  path: string
  title: string
  access: Access
  /** Skip the device and group checks (SPEC 2: login, reg, distribution view, share view, web). */
  skipChecks: boolean
  /** Taro page path without leading slash, e.g. 'pages/map/index'. */
  page: string | null
  /** Always redirect to this path (query kept). */
  redirect?: string
  /** Hidden from menus. */
  hidden?: boolean
}

export const ROUTES: RouteDef[] = [
  { path: '/', title: '', access: 'none', skipChecks: false, page: null, redirect: '/map' },
  { path: '/login', title: '登录', access: 'public', skipChecks: true, page: 'pages/login/index' },
  { path: '/reg', title: '注册', access: 'public', skipChecks: true, page: 'pages/reg/index' },
  { path: '/distribution/view', title: '分销', access: 'public', skipChecks: true, page: 'pages/distribution/view/index' },
  { path: '/group', title: '团队', access: 'login', skipChecks: false, page: 'pages/group/index' },
  { path: '/department', title: '部门', access: 'login', skipChecks: false, page: 'pages/department/index' },
  { path: '/guide', title: '开始使用', access: 'login', skipChecks: false, page: 'pages/guide/index' },
  { path: '/guide/init', title: '完善信息', access: 'login', skipChecks: false, page: 'pages/guide/init/index' },
  { path: '/home', title: '个人中心', access: 'login', skipChecks: false, page: 'pages/home/index' },
  { path: '/about', title: '关于', access: 'login', skipChecks: false, page: 'pages/about/index' },
  { path: '/web', title: '网页', access: 'public', skipChecks: true, page: 'pages/web/index' },
  { path: '/vip', title: '会员中心', access: 'login', skipChecks: false, page: 'pages/vip/index' },
  { path: '/logoff', title: '注销账号', access: 'login', skipChecks: false, page: 'pages/home/logoff/index' },
  { path: '/myinfo', title: '我的信息', access: 'login', skipChecks: false, page: 'pages/myinfo/index' },
  { path: '/order', title: '我的订单', access: 'login', skipChecks: false, page: 'pages/order/index' },
  { path: '/system/setting', title: '设置', access: 'login', skipChecks: false, page: 'pages/setting/index' },
  { path: '/index', title: '', access: 'login', skipChecks: false, page: null, redirect: '/map' },
  { path: '/route', title: '路线规划', access: 'login', skipChecks: false, page: 'pages/route/index' },
  { path: '/route/add', title: '新建路线', access: 'login', skipChecks: false, page: 'pages/route/add/index' },
  { path: '/map', title: '地图数据', access: 'login', skipChecks: false, page: 'pages/map/index' },
  { path: '/addinfo', title: '标注详情', access: 'login', skipChecks: false, page: 'pages/addinfo/index' },
  { path: '/fields', title: '字段列表', access: 'login', skipChecks: false, page: 'pages/fields/index' },
  // Not a SPEC route: a layer's data list (the layer action data_list), from the layer panel.
  { path: '/datalist', title: '数据列表', access: 'login', skipChecks: false, page: 'pages/datalist/index' },
  { path: '/oplog', title: '操作日志', access: 'login', skipChecks: false, page: 'pages/oplog/index' },
  { path: '/task', title: '任务中心', access: 'login', skipChecks: false, page: 'pages/task/index' },
  { path: '/task/add', title: '新建任务', access: 'login', skipChecks: false, page: 'pages/task/add/index' },
  { path: '/share/view', title: '分享预览', access: 'public', skipChecks: true, page: 'pages/share/view/index' },
  // Not a SPEC route: the print module's sheet (打印), a VIP module's page as /route is.
  { path: '/print', title: '打印地图', access: 'login', skipChecks: false, page: 'pages/print/index' },
  { path: '/share/management', title: '分享管理', access: 'login', skipChecks: false, page: 'pages/shares/index' },
  { path: '/redirect', title: '', access: 'login', skipChecks: false, page: 'pages/redirect/index', hidden: true },
  { path: '/warning', title: '提示', access: 'none', skipChecks: true, page: 'pages/warning/index' },
  // Not a SPEC route: where any other path lands.
  { path: '/404', title: '页面不存在', access: 'none', skipChecks: true, page: 'pages/not-found/index', hidden: true },
]

/**
 * The membership pages (and account deletion): the expired dialog, the expiry reminder and the trial
 * welcome stand aside there, since renewing happens there.
 */
export const MEMBERSHIP_PATHS = ['/vip', '/order', '/logoff']

/**
 * Pages that are a starting point, not reached from another screen: no H5 title bar with a back
 * control there (the map, the login page, a shared link, the first set-up steps).
 */
export const START_PATHS = ['/map', '/login', '/share/view', '/redirect', '/warning', '/guide', '/guide/init']

/** Where back goes from a page opened directly: the list it belongs to (/task for /task/add), else the map. */
export function backFallbackOf(path: string): string {
  const parent = path.slice(0, path.lastIndexOf('/'))
  return parent && ROUTES.some((r) => r.path === parent && r.page) ? parent : '/map'
}

/** Shown for any other path. */
export const NOT_FOUND_PATH = '/404'

/** Taro pages that belong to the weapp main package. */
export const MAIN_PACKAGE_PAGES = ['pages/map/index', 'pages/login/index', 'pages/share/view/index']

export function findRoute(path: string): RouteDef | undefined {
  const clean = normalizePath(path)
  if (clean.startsWith('/redirect/')) return ROUTES.find((r) => r.path === '/redirect')
  return ROUTES.find((r) => r.path === clean)
}

export function routeOfPage(page: string): RouteDef | undefined {
  const p = normalizePath(page).replace(/^\//, '')
  return ROUTES.find((r) => r.page === p)
}

/** The route for what the address shows: a SPEC path on H5, a page route on weapp. */
export function resolveRoute(pathname: string): RouteDef | undefined {
  return findRoute(pathname) ?? routeOfPage(pathname)
}

/** The Taro page URL that renders a SPEC path (with its query), or the not-found page. */
export function pageUrlOf(pathWithQuery: string): string {
  const [path, query] = splitQuery(pathWithQuery)
  let route = findRoute(path)
  while (route?.redirect) route = findRoute(route.redirect)
  const page = route?.page ?? ROUTES.find((r) => r.path === NOT_FOUND_PATH)!.page
  // /redirect/{path}: a page route cannot carry the rest of the path, so it travels as ?path=.
  const clean = normalizePath(path)
  const rest = route?.path === '/redirect' && clean.startsWith('/redirect/') ? `path=${encodeURIComponent(clean.slice('/redirect'.length))}` : ''
  const q = [rest, query].filter(Boolean).join('&')
  return '/' + page + (q ? `?${q}` : '')
}

export function splitQuery(pathWithQuery: string): [string, string] {
  const i = pathWithQuery.indexOf('?')
  return i < 0 ? [pathWithQuery, ''] : [pathWithQuery.slice(0, i), pathWithQuery.slice(i + 1)]
}

/** Pages that exist in this build (app.config pages and H5 custom routes are derived from this). */
export function builtRoutes(): RouteDef[] {
  return ROUTES.filter((r) => r.page)
}

export function normalizePath(path: string): string {
  const noQuery = path.split('?')[0].split('#')[0]
  if (noQuery.length > 1 && noQuery.endsWith('/')) return noQuery.slice(0, -1)
  return noQuery || '/'
}
