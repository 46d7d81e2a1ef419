/**
 * Runs the built mini-program (dist/weapp) in Node with fake App, Page, Component and wx globals,
 * as TOOLCHAIN.md describes: launches the app, loads one page, calls onLoad (with exactly one
 * argument) and onShow, optionally taps an element, and prints what the page rendered as JSON.
 * Usage: node mini-runtime.cjs <distDir> <pageRoute> [storageJson] [tapText] [responsesJson]
 * responsesJson maps API paths to the `data` the server answers with (errcode 0); other calls fail
 * as if offline; `{"__sequence": [a, b]}` answers a, then b (and b again). Its `__socket` entry
 * scripts wx.connectSocket: `{ready: seq, pushes: [{afterMs, msg}]}` answers hello with ready and
 * then sends each push. The map context answers with a region around Beijing at scale 12.
 * Its `__system` entry overrides fields of what wx.getSystemInfo / wx.getDeviceInfo answer (`{platform: 'ios'}`).
 * Its `__privacy` entry (`{agreed: false}`) makes the phone one whose user has not agreed to the privacy
 * agreement: wx.getLocation then waits on the wx.onNeedPrivacyAuthorization listeners, and goes on or
 * fails with WeChat's own words after the resolve (output `privacy`: asks, choices, contracts opened,
 * each getLocation's outcome). MINI_TAPS (JSON `[{text, events}]`) taps again after the first tap,
 * one after another, dispatching each listed event type (default tap) to the element and its ancestors.
 * Its `__network` entry scripts the network state: `{connected: false, changes: [{afterMs, connected}]}`
 * (wx.getNetworkType and wx.onNetworkStatusChange); without it the phone is connected. While not
 * connected every wx.request fails as offline. Each request is listed with `answered` (the server got it).
 * A route may carry a query (`pages/addinfo/index?type=0&layer_id=1`): onLoad gets it as its options.
 * MINI_INPUT (JSON `[{placeholder, value}]`) types into inputs found by their placeholder, before the tap.
 * The output carries what the page's onShareAppMessage and onShareTimeline answer, and the share menu calls.
 * MINI_MARKER_TAP (a marker id) taps that marker on the page's map first (its markertap), and the tap by text
 * waits MINI_WAIT_MS after it. The output lists what wx.openLocation was asked to show (`locations`).
 * MINI_WAIT_MS (default 300) is how long the page runs before its output is read.
 * MINI_FS names a JSON file holding the user file system (USER_DATA_PATH): read at start when it
 * exists and written back at the end, so that a second run is a restart of the app on the same phone.
 */
const path = require('path')
const [distArg, route, storageJson = '{}', tapText = '', responsesJson = '{}'] = process.argv.slice(2)
// '@file' reads the answers from a file (a page of 5000 markers is too long for a command line).
const responses = JSON.parse(responsesJson.startsWith('@') ? require('fs').readFileSync(responsesJson.slice(1), 'utf8') : responsesJson)
const dist = path.resolve(distArg)
const storage = JSON.parse(storageJson)
const navigations = []
const requests = []
/** What the page asked of the map context (addMarkers / removeMarkers payloads). */
const mapCalls = []
/** wx.requestPayment calls (the signed parameters the page passed). */
const payments = []
/** Sockets the page opened (wx.connectSocket): their url and the messages the app sent. */
const sockets = []
/** What wx.showToast said. */
const toasts = []
/** What wx.openLocation was asked to show (WeChat's map page for navigation). */
const locations = []
/** wx.showShareMenu / wx.hideShareMenu calls. */
const shareMenus = []
/**
 * The photo album and documents: getSetting / authorize / openSetting for scope.writePhotosAlbum,
 * downloadFile, saveImageToPhotosAlbum, previewImage, openDocument, in the order the page called
 * them. The script's __album ('granted' by default, 'denied', or 'ask' to be asked once and
 * allow) says how the user answers.
 */
const media = []
const albumScript = responses.__album || 'granted'
const socketScript = responses.__socket || null
const networkScript = responses.__network || { connected: true }
const networkListeners = []
const privacyScript = responses.__privacy || null
const privacyListeners = []
const privacy = { asks: 0, choices: [], contractsOpened: 0, locations: [] }
let privacyAgreed = !privacyScript || privacyScript.agreed !== false
/** Connected now, as the script says: without network every wx.request fails. */
let connected = networkScript.connected !== false
const USER_DATA_PATH = 'wxfile://usr'
const fsFile = process.env.MINI_FS || ''
/** The user file system: path → text of each file (directories are implied by the paths). */
const files = fsFile && require('fs').existsSync(fsFile) ? JSON.parse(require('fs').readFileSync(fsFile, 'utf8')) : {}
const fsOk = (o, res) => setTimeout(() => o.success && o.success(res || {}), 0)
const fsFail = (o, errMsg) => setTimeout(() => o.fail && o.fail({ errMsg }), 0)
const fileSystemManager = {
  mkdir: (o) => fsOk(o),
  readdir: (o) => {
    const head = o.dirPath.replace(/\/$/, '') + '/'
    const names = new Set()
    for (const p of Object.keys(files)) if (p.startsWith(head)) names.add(p.slice(head.length).split('/')[0])
    fsOk(o, { files: Array.from(names) })
  },
  stat: (o) => {
    if (o.path in files) fsOk(o, { stats: { size: Buffer.byteLength(files[o.path]), isFile: () => true, isDirectory: () => false } })
    else fsFail(o, 'stat:fail no such file or directory')
  },
  readFile: (o) => (o.filePath in files ? fsOk(o, { data: files[o.filePath] }) : fsFail(o, 'readFile:fail no such file or directory')),
  writeFile: (o) => {
    files[o.filePath] = String(o.data)
    fsOk(o)
  },
  unlink: (o) => {
    delete files[o.filePath]
    fsOk(o)
  },
  copyFile: (o) => {
    if (!(o.srcPath in files)) return fsFail(o, 'copyFile:fail no such file or directory')
    files[o.destPath] = files[o.srcPath]
    fsOk(o)
  },
}
// How long the page may settle before the tap and after it: build.test.ts asks for more where a
// page chains several answers (a slow, shared machine needs it).
const waitMs = Number(process.env.MINI_WAIT_MS) || 300
let appConfig
const pageConfigs = []
const pageStack = []

const systemInfo = {
  platform: 'android', system: 'Android 13', brand: 'test', model: 'phone', language: 'zh_CN', version: '8.0.50', SDKVersion: '3.5.0',
  windowWidth: 375, windowHeight: 812, screenWidth: 375, screenHeight: 812, pixelRatio: 2, statusBarHeight: 20,
}
// `__system` in the answers overrides the phone's system info (e.g. an iPhone: {platform: 'ios'}).
Object.assign(systemInfo, responses.__system || {})
const nav = (kind) => (o) => {
  navigations.push({ kind, url: o.url })
  o.success && o.success({})
}
global.wx = {
  env: { USER_DATA_PATH },
  getFileSystemManager: () => fileSystemManager,
  getNetworkType: (o) => setTimeout(() => o.success && o.success({ networkType: networkScript.connected === false ? 'none' : 'wifi' }), 0),
  onNetworkStatusChange: (fn) => void networkListeners.push(fn),
  getSystemInfoSync: () => systemInfo,
  getSystemInfo: (o) => o.success && o.success(systemInfo),
  getDeviceInfo: () => systemInfo,
  getWindowInfo: () => systemInfo,
  getAppBaseInfo: () => systemInfo,
  getStorageSync: (k) => (k in storage ? storage[k] : ''),
  setStorageSync: (k, v) => void (storage[k] = v),
  removeStorageSync: (k) => void delete storage[k],
  request: (o) => {
    // `answered`: the server got it (false when it failed as offline: no answer scripted, or no network).
    const apiPath = String(o.url).replace(/^https?:\/\/[^/]+/, '')
    const answered = connected && apiPath in responses && !apiPath.startsWith('__')
    requests.push({ url: o.url, data: o.data, answered })
    if (answered) {
      let data = responses[apiPath]
      if (data && Array.isArray(data.__sequence)) data = data.__sequence.length > 1 ? data.__sequence.shift() : data.__sequence[0]
      // Lists of markers answer one page at a time, as the server does.
      if (data && Array.isArray(data.list) && o.data && o.data.pageindex) {
        const size = o.data.pagesize || 5000
        data = { list: data.list.slice((o.data.pageindex - 1) * size, o.data.pageindex * size), total: data.list.length }
      }
      setTimeout(() => o.success && o.success({ statusCode: 200, data: { header: { errcode: 0, errmsg: '' }, data }, header: {} }), 0)
    } else setTimeout(() => o.fail && o.fail({ errMsg: 'request:fail offline' }), 0)
    return { abort() {} }
  },
  createMapContext: () => ({
    getRegion: (o) => o.success && o.success({ southwest: { longitude: 116.0, latitude: 39.6 }, northeast: { longitude: 116.8, latitude: 40.2 } }),
    getScale: (o) => o.success && o.success({ scale: 12 }),
    moveToLocation: () => undefined,
    addMarkers: (o) => {
      mapCalls.push({ kind: 'addMarkers', markers: o.markers, clear: o.clear })
      o.success && o.success({})
    },
    removeMarkers: (o) => {
      mapCalls.push({ kind: 'removeMarkers', markerIds: o.markerIds })
      o.success && o.success({})
    },
  }),
  nextTick: (fn) => setTimeout(fn, 0),
  getMenuButtonBoundingClientRect: () => ({ top: 24, height: 32, right: 360, width: 87, left: 273, bottom: 56 }),
  canIUse: () => true,
  onAppRoute: () => undefined,
  redirectTo: nav('redirectTo'),
  navigateTo: nav('navigateTo'),
  reLaunch: nav('reLaunch'),
  navigateBack: nav('navigateBack'),
  // One answer per query, as WeChat gives: a zero rect for select(), an empty list for selectAll().
  createSelectorQuery: () => {
    const answers = []
    let all = false
    const rect = { width: 0, height: 0, left: 0, top: 0, right: 0, bottom: 0 }
    const q = {
      in() { return q },
      select() { all = false; return q },
      selectAll() { all = true; return q },
      boundingClientRect(cb) { const a = all ? [] : { ...rect }; answers.push(a); cb && cb(a); return q },
      fields(_f, cb) { const a = all ? [] : { ...rect }; answers.push(a); cb && cb(a); return q },
      scrollOffset(cb) { const a = { scrollLeft: 0, scrollTop: 0 }; answers.push(a); cb && cb(a); return q },
      exec(cb) { cb && cb(answers) },
    }
    return q
  },
  onNeedPrivacyAuthorization: (fn) => void privacyListeners.push(fn),
  openPrivacyContract: (o) => {
    privacy.contractsOpened++
    setTimeout(() => o && o.success && o.success({ errMsg: 'openPrivacyContract:ok' }), 0)
  },
  // A position near Beijing; held by the privacy agreement until the user answered, as WeChat does.
  getLocation: (o) => {
    const ok = () => {
      privacy.locations.push('ok')
      o.success && o.success({ longitude: 116.397, latitude: 39.909, accuracy: 20, errMsg: 'getLocation:ok' })
    }
    const refused = () => {
      privacy.locations.push('privacy refused')
      o.fail && o.fail({ errMsg: 'getLocation:fail privacy permission is not authorized', errno: 104 })
    }
    if (privacyAgreed) return setTimeout(ok, 0)
    if (!privacyListeners.length) return setTimeout(refused, 0)
    privacy.asks++
    let answered = false
    const resolve = (choice) => {
      if (answered) return
      answered = true
      privacy.choices.push(choice)
      // WeChat takes an agreement only from a tap on an agreePrivacyAuthorization button (its id).
      if (choice && choice.event === 'agree' && choice.buttonId) privacyAgreed = true
      setTimeout(privacyAgreed ? ok : refused, 0)
    }
    privacyListeners.forEach((fn) => fn(resolve, { referrer: 'getLocation' }))
  },
  login: (o) => setTimeout(() => o.success && o.success({ code: 'wx-login-code', errMsg: 'login:ok' }), 0),
  requestPayment: (o) => {
    payments.push({ timeStamp: o.timeStamp, nonceStr: o.nonceStr, package: o.package, signType: o.signType, paySign: o.paySign })
    // The user closes the payment sheet: the page must say so and keep the order.
    setTimeout(() => o.fail && o.fail({ errMsg: 'requestPayment:fail cancel' }), 0)
  },
  getSetting: (o) => {
    media.push({ api: 'getSetting' })
    const authSetting = albumScript === 'ask' ? {} : { 'scope.writePhotosAlbum': albumScript === 'granted' }
    setTimeout(() => o.success && o.success({ authSetting, errMsg: 'getSetting:ok' }), 0)
  },
  authorize: (o) => {
    media.push({ api: 'authorize', scope: o.scope })
    setTimeout(() => (albumScript === 'denied' ? o.fail && o.fail({ errMsg: 'authorize:fail auth deny' }) : o.success && o.success({ errMsg: 'authorize:ok' })), 0)
  },
  openSetting: (o) => {
    media.push({ api: 'openSetting' })
    setTimeout(() => o.success && o.success({ authSetting: {}, errMsg: 'openSetting:ok' }), 0)
  },
  downloadFile: (o) => {
    media.push({ api: 'downloadFile', url: o.url })
    setTimeout(() => o.success && o.success({ statusCode: 200, tempFilePath: `wxfile://tmp/${String(o.url).split('/').pop()}`, errMsg: 'downloadFile:ok' }), 0)
    return { abort() {}, onProgressUpdate() {} }
  },
  saveImageToPhotosAlbum: (o) => {
    media.push({ api: 'saveImageToPhotosAlbum', filePath: o.filePath })
    setTimeout(() => o.success && o.success({ errMsg: 'saveImageToPhotosAlbum:ok' }), 0)
  },
  previewImage: (o) => {
    media.push({ api: 'previewImage', urls: o.urls })
    setTimeout(() => o.success && o.success({ errMsg: 'previewImage:ok' }), 0)
  },
  openDocument: (o) => {
    media.push({ api: 'openDocument', filePath: o.filePath, fileType: o.fileType, showMenu: o.showMenu })
    setTimeout(() => o.success && o.success({ errMsg: 'openDocument:ok' }), 0)
  },
  showToast: (o) => void toasts.push(o && o.title),
  // `__openLocation: {errMsg}` in the answers makes WeChat's map page fail to open with that message.
  openLocation: (o) => {
    locations.push({ latitude: o.latitude, longitude: o.longitude, name: o.name, address: o.address, scale: o.scale })
    const failure = responses.__openLocation
    if (failure) setTimeout(() => o.fail && o.fail({ errMsg: failure.errMsg }), 0)
    else setTimeout(() => o.success && o.success({ errMsg: 'openLocation:ok' }), 0)
  },
  hideToast: () => undefined,
  // The ··· menu: which share items the page offered or withdrew.
  showShareMenu: (o) => {
    shareMenus.push({ show: (o && o.menus) || ['shareAppMessage'] })
    o && o.success && o.success({ errMsg: 'showShareMenu:ok' })
  },
  hideShareMenu: (o) => {
    shareMenus.push({ hide: (o && o.menus) || ['shareAppMessage', 'shareTimeline'] })
    o && o.success && o.success({ errMsg: 'hideShareMenu:ok' })
  },
  // A push socket that the script drives: opens at once, answers hello with ready, then pushes.
  connectSocket: (o) => {
    const handlers = { open: [], message: [], close: [], error: [] }
    const emit = (kind, arg) => handlers[kind].forEach((fn) => fn(arg))
    const record = { url: o.url, sent: [] }
    sockets.push(record)
    const task = {
      send(m) {
        const msg = JSON.parse(m.data)
        record.sent.push(msg)
        m.success && m.success({})
        if (msg.type === 'hello' && socketScript) {
          setTimeout(() => emit('message', { data: JSON.stringify({ type: 'ready', seq: socketScript.ready || 0 }) }), 0)
          for (const p of socketScript.pushes || []) setTimeout(() => emit('message', { data: JSON.stringify(p.msg) }), p.afterMs || 0)
        }
      },
      close(c) {
        setTimeout(() => emit('close', { code: (c && c.code) || 1000, reason: '' }), 0)
      },
      onOpen: (fn) => handlers.open.push(fn),
      onMessage: (fn) => handlers.message.push(fn),
      onClose: (fn) => handlers.close.push(fn),
      onError: (fn) => handlers.error.push(fn),
    }
    setTimeout(() => emit('open', {}), 0)
    o.success && o.success({})
    return task
  },
}
global.App = (cfg) => void (appConfig = cfg)
global.Page = (cfg) => void pageConfigs.push(cfg)
global.Component = () => undefined
global.Behavior = (b) => b
global.getApp = () => appConfig
global.getCurrentPages = () => pageStack
global.requirePlugin = () => ({})

process.chdir(dist)
require(path.resolve(dist, 'app.js'))
for (const c of networkScript.changes || []) {
  setTimeout(() => {
    connected = c.connected
    networkListeners.forEach((fn) => fn({ isConnected: c.connected, networkType: c.connected ? 'wifi' : 'none' }))
  }, c.afterMs || 0)
}
appConfig.onLaunch && appConfig.onLaunch.call(appConfig, { path: route, query: {}, scene: 1001 })
const [routePath, routeQuery = ''] = route.split('?')
const query = Object.fromEntries(new URLSearchParams(routeQuery))
const inputs = JSON.parse(process.env.MINI_INPUT || '[]')
require(path.resolve(dist, routePath + '.js'))
const cfg = pageConfigs[pageConfigs.length - 1]
const updates = []
const page = Object.assign(Object.create(cfg), cfg, {
  route: routePath,
  options: query,
  data: {},
  setData(d, cb) {
    updates.push(d)
    Object.assign(this.data, d)
    cb && cb()
  },
})
pageStack.push(page)
page.onLoad.call(page, query)
page.onShow && page.onShow.call(page)

/** The first rendered element with an attribute equal to `value` (Taro shortens names: placeholder is `p13`). */
function findNode(node, value) {
  if (!node || typeof node !== 'object') return null
  if (!Array.isArray(node) && (node.uid || node.sid) && Object.keys(node).some((k) => k !== 'v' && node[k] === value)) return node
  for (const k of Object.keys(node)) {
    const hit = findNode(node[k], value)
    if (hit) return hit
  }
  return null
}

/** The chain of rendered elements (innermost first) around the first text node equal to `text`. */
function findChain(node, text, ancestors = []) {
  if (!node || typeof node !== 'object') return null
  if (Array.isArray(node)) {
    for (const n of node) {
      const hit = findChain(n, text, ancestors)
      if (hit) return hit
    }
    return null
  }
  if (node.v === text) return ancestors.filter((a) => a.uid || a.sid).reverse()
  const next = [...ancestors, node]
  for (const key of Object.keys(node)) {
    const hit = findChain(node[key], text, next)
    if (hit) return hit
  }
  return null
}

let tapped = null
setTimeout(() => {
  for (const { placeholder, value } of inputs) {
    const el = findNode(page.data, placeholder)
    if (!el || typeof page.eh !== 'function') continue
    const target = { id: el.uid || el.sid, dataset: { sid: el.sid } }
    page.eh({ type: 'input', timeStamp: Date.now(), target, currentTarget: target, detail: { value, cursor: value.length } })
  }
  const markerTap = Number(process.env.MINI_MARKER_TAP || 0)
  if (markerTap) {
    // WeChat's map fires markertap on the map element (`id` main-map) with the marker's id.
    const map = findNode(page.data, 'main-map')
    if (map && typeof page.eh === 'function') {
      const target = { id: map.uid || map.sid, dataset: { sid: map.sid } }
      page.eh({ type: 'markertap', timeStamp: Date.now(), target, currentTarget: target, detail: { markerId: markerTap } })
    }
  }
  const tapByText = () => {
    if (!tapText) return
    const chain = findChain(page.data, tapText)
    if (chain && chain.length && typeof page.eh === 'function') {
      // A native tap bubbles: WeChat calls the handler once for every element on the way up.
      const target = { id: chain[0].uid || chain[0].sid, dataset: { sid: chain[0].sid } }
      for (const el of chain) {
        page.eh({ type: 'tap', timeStamp: Date.now(), target, currentTarget: { id: el.uid || el.sid, dataset: { sid: el.sid } }, detail: {} })
      }
      tapped = target.id
    }
  }
  if (markerTap) setTimeout(tapByText, waitMs)
  else tapByText()
  // MINI_TAPS: more taps, one a wait after the other, after the first.
  const taps = JSON.parse(process.env.MINI_TAPS || '[]')
  const tapNext = (i) => {
    if (i >= taps.length) return finish(waitMs)
    const chain = findChain(page.data, taps[i].text)
    if (chain && chain.length && typeof page.eh === 'function') {
      const target = { id: chain[0].uid || chain[0].sid, dataset: { sid: chain[0].sid } }
      for (const type of taps[i].events || ['tap']) {
        for (const el of chain) page.eh({ type, timeStamp: Date.now(), target, currentTarget: { id: el.uid || el.sid, dataset: { sid: el.sid } }, detail: {} })
      }
    }
    setTimeout(() => tapNext(i + 1), waitMs)
  }
  const afterFirstTap = markerTap ? 2 * waitMs : waitMs
  if (taps.length) setTimeout(() => tapNext(0), afterFirstTap)
  else finish(afterFirstTap)
}, waitMs)

/** Prints what the page rendered, `delay` after the last tap. */
function finish(delay) {
  setTimeout(() => {
    const rendered = JSON.stringify(updates)
    // What forwarding the page in a chat, and posting it to Moments, would carry (WeChat calls these from the ··· menu).
    const forward = typeof page.onShareAppMessage === 'function' ? page.onShareAppMessage.call(page, { from: 'menu' }) : null
    const timeline = typeof page.onShareTimeline === 'function' ? page.onShareTimeline.call(page) : null
    // Exit only once a large answer has drained into the pipe.
    if (fsFile) require('fs').writeFileSync(fsFile, JSON.stringify(files))
    process.stdout.write(JSON.stringify({ rendered, navigations, requests, tapped, mapCalls, payments, sockets, toasts, locations, forward, timeline, shareMenus, media, privacy, storageKeys: Object.keys(storage), files: Object.keys(files) }), () => process.exit(0))
  }, delay)
}
