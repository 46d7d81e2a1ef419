export default definePageConfig({ navigationBarTitleText: '字段列表' })
