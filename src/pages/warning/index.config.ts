export default definePageConfig({ navigationBarTitleText: '提示' })
