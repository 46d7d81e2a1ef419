export default definePageConfig({ navigationBarTitleText: '新建任务' })
