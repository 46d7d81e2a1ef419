export default definePageConfig({ navigationBarTitleText: '开始使用' })
