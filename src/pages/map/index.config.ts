export default definePageConfig({ navigationBarTitleText: '地图数据', disableScroll: true, enableShareAppMessage: true })
