export default definePageConfig({ navigationBarTitleText: '部门' })
