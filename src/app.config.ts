import { appPages } from './router/packages'

const { pages, subPackages } = appPages()

export default defineAppConfig({
  pages,
  subPackages,
  window: {
    backgroundTextStyle: 'light',
    navigationBarBackgroundColor: '#ffffff',
    navigationBarTitleText: '团队地图',
    navigationBarTextStyle: 'black',
  },
  permission: {
    'scope.userLocation': { desc: '用于在地图上显示您的位置和签到' },
  },
  requiredPrivateInfos: ['getLocation'],
  lazyCodeLoading: 'requiredComponents',
})
