export default definePageConfig({ navigationBarTitleText: '任务中心' })
