export default definePageConfig({ navigationBarTitleText: '分享管理' })
