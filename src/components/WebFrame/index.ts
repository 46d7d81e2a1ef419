/**
 * An external page in the app (Taro picks WebFrame.h5.tsx, an iframe, or WebFrame.weapp.tsx, WeChat's
 * web-view, by suffix); pages reach it through this module rather than platform/ itself.
 */
export { WebFrame, type WebFrameProps } from '../../platform/webview/WebFrame'
