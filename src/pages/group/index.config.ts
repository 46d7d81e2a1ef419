export default definePageConfig({ navigationBarTitleText: '团队' })
