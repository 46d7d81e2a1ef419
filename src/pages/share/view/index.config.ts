export default definePageConfig({ navigationBarTitleText: '分享预览', enableShareAppMessage: true, enableShareTimeline: true })
