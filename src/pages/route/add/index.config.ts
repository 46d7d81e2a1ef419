export default definePageConfig({ navigationBarTitleText: '新建路线' })
