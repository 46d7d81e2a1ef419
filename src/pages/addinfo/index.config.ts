export default definePageConfig({ navigationBarTitleText: '标注详情' })
