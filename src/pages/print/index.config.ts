export default definePageConfig({ navigationBarTitleText: '打印地图' })
