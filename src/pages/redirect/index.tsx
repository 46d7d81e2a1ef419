/**
 * /redirect/{path} (SPEC 2, hidden): opens {path} with the query kept, in place of this page.
 * /redirect alone opens the map; a path that is no screen of this build opens the not-found page.
 */
import { Loading } from '@nutui/nutui-react-taro'
import { View } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import { useEffect } from 'react'
import { PageShell } from '../../components/PageShell'
import { APP_MSG } from '../../domain/appMessages'
import { redirectTarget } from '../../domain/web'
import { NOT_FOUND_PATH, ROUTES } from '../../router/routes'
import { useStores } from '../../stores/context'
import { Spinner } from '../../components/Spinner'
import './index.scss'

/** Mounts once the navigation guard let the user in (the redirect route needs a login). */
function Forward() {
  const root = useStores()
  useEffect(() => {
    const loc = root.platform.location()
    const decision = redirectTarget(loc.pathname, loc.search, ROUTES)
    root.navigate('to' in decision ? decision.to : NOT_FOUND_PATH, 'redirect')
  }, [root])
  return (
    <View className='redirect-wait'>
      <Loading direction='vertical' icon={<Spinner />}>
        {APP_MSG.redirecting}
      </Loading>
    </View>
  )
}

function RedirectPage() {
  return (
    <PageShell className='redirect-page'>
      <Forward />
    </PageShell>
  )
}

export default observer(RedirectPage)
