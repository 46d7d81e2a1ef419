export default definePageConfig({ navigationBarTitleText: '路线规划', enableShareAppMessage: true })
