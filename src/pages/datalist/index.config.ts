export default definePageConfig({ navigationBarTitleText: '数据列表', disableScroll: true })
