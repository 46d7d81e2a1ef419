export default definePageConfig({ navigationBarTitleText: '我的订单' })
