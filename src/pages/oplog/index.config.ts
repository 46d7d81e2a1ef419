export default definePageConfig({ navigationBarTitleText: '操作日志' })
