/**
 * The membership dialogs held in app state (SPEC 2, 3, 4, 5): the expired dialog in its
 * administrator variant (renew, reset to free, log out) and member variant (switch to my own map,
 * log out), the reset-to-free confirmation with its remark, the expiry reminder, the trial welcome
 * ('contact service', 'fill in questionnaire'), the questionnaire and the customer-service sheet.
 * PageShell loads this file only when one of them is due, so its code stays out of every page.
 */
import { Button, Dialog, Image, Input, Popup, Radio, TextArea } from '@nutui/nutui-react-taro'
import { Text, View } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import { useState } from 'react'
import { RESET_REMARK_MAX, VERIFY_ANSWER_MAX, VERIFY_FIELD_MAX } from '../../domain/constants'
import { COMPANY_SIZE_OPTIONS, VIP_MSG } from '../../domain/vipMessages'
import { qrDataUrl } from '../../domain/qr'
import { vipDaysLeft } from '../../domain/vipPrompt'
import { VERIFY_QUESTIONS } from '../../domain/vip'
import { MEMBERSHIP_PATHS } from '../../router/routes'
import { useStores } from '../../stores/context'
import './index.scss'
import { vipStores } from '../../stores/vipStores'

const ExpiredDialog = observer(function ExpiredDialog({ path }: { path: string }) {
  const { app, session, vip, navigate } = useStores(vipStores)
  const [resetting, setResetting] = useState(false)
  const visible = app.show_vip_expired_modal && !MEMBERSHIP_PATHS.includes(path)
  const admin = session.is_admin
  const footer = admin ? (
    <View className='vip-dialog__actions'>
      {app.canBuyMembership ? (
        <Button block type='primary' className='vip-expired__renew' onClick={() => navigate('/vip')}>
          立即续费
        </Button>
      ) : null}
      <Button block fill='outline' type='primary' className='vip-expired__reset' onClick={() => setResetting(true)}>
        重置为免费版
      </Button>
      <Button block fill='none' className='vip-expired__logout' onClick={() => void session.logout()}>
        退出登录
      </Button>
    </View>
  ) : (
    <View className='vip-dialog__actions'>
      <Button block type='primary' className='vip-expired__own' onClick={() => void session.openOwnMap()}>
        切换到我的地图
      </Button>
      <Button block fill='none' className='vip-expired__logout' onClick={() => void session.logout()}>
        退出登录
      </Button>
    </View>
  )
  return (
    <>
      <Dialog
        className={`vip-expired vip-expired--${admin ? 'admin' : 'member'}`}
        title={VIP_MSG.expiredTitle}
        visible={visible && !resetting}
        closeOnOverlayClick={false}
        footer={footer}
        content={
          <View className='vip-dialog__body'>
            <Text>{admin ? VIP_MSG.expiredAdmin : VIP_MSG.expiredMember}</Text>
            {!admin && session.user?.group_vip ? <Text className='vip-dialog__sub muted'>团队管理员：{session.user.group_vip.nickname}</Text> : null}
          </View>
        }
      />
      <Dialog
        className='vip-reset dialog--destructive'
        title={VIP_MSG.resetTitle}
        visible={visible && resetting}
        closeOnOverlayClick={false}
        confirmText='确定重置'
        cancelText='取消'
        disableConfirmButton={vip.resetting}
        content={
          <View className='vip-dialog__body'>
            <Text className='vip-reset__text'>{VIP_MSG.resetConfirm}</Text>
            <TextArea
              className='vip-reset__remark'
              placeholder={VIP_MSG.resetRemarkPlaceholder}
              value={vip.resetRemark}
              maxLength={RESET_REMARK_MAX}
              rows={3}
              onChange={(v) => vip.setResetRemark(v)}
            />
          </View>
        }
        onConfirm={() => {
          void vip.resetToFree().then((done) => done && setResetting(false))
        }}
        onCancel={() => setResetting(false)}
      />
    </>
  )
})

const ReminderDialog = observer(function ReminderDialog({ path }: { path: string }) {
  const { app, session, navigate } = useStores()
  // No renewal prompt where the device may not buy (the mini-program on iOS).
  const renew = session.is_admin && app.canBuyMembership
  return (
    <Dialog
      className='vip-reminder'
      title={VIP_MSG.reminderTitle}
      visible={app.show_vip_exp_modal && !MEMBERSHIP_PATHS.includes(path)}
      content={VIP_MSG.reminder(app.vip_reminder_days)}
      confirmText={renew ? '立即续费' : '知道了'}
      hideCancelButton={!renew}
      cancelText='知道了'
      onConfirm={() => {
        app.closeReminder()
        if (renew) navigate('/vip')
      }}
      onCancel={() => app.closeReminder()}
    />
  )
})

const TrialWelcome = observer(function TrialWelcome({ path }: { path: string }) {
  const { app, session, vip } = useStores(vipStores)
  const days = vipDaysLeft(session.user?.group_vip?.group_vip_exp, new Date())
  return (
    <Dialog
      className='vip-welcome'
      title={VIP_MSG.trialWelcomeTitle}
      visible={app.show_trial_welcome && !MEMBERSHIP_PATHS.includes(path)}
      content={VIP_MSG.trialWelcome(days)}
      closeIcon
      confirmText='填写问卷'
      cancelText='联系客服'
      onConfirm={() => void vip.openVerify()}
      onCancel={() => {
        app.closeTrialWelcome()
        app.setServiceSheet(true)
      }}
      onClose={() => app.closeTrialWelcome()}
    />
  )
})

const VerifyForm = observer(function VerifyForm() {
  const { app, vip } = useStores(vipStores)
  const f = vip.verifyForm
  const field = (key: 'name' | 'business_type' | 'contacts' | 'post', label: string, placeholder: string) => (
    <View className='verify-row'>
      <Text className='verify-row__label'>{label}</Text>
      <Input className='verify-row__input' placeholder={placeholder} value={f[key]} maxLength={VERIFY_FIELD_MAX} onChange={(v) => vip.setVerifyField(key, v)} />
    </View>
  )
  const answer = (key: 'qa1' | 'qa2' | 'qa3', i: number) => (
    <View className='verify-qa'>
      <Text className='verify-qa__q'>{VERIFY_QUESTIONS[i]}</Text>
      <TextArea className={`verify-qa__a verify-${key}`} placeholder='请输入您的回答' value={f[key]} maxLength={VERIFY_ANSWER_MAX} rows={2} onChange={(v) => vip.setVerifyField(key, v)} />
    </View>
  )
  return (
    <Popup visible={app.show_verify_modal} position='bottom' round closeable title={VIP_MSG.verifyTitle} onClose={() => app.setVerifyModal(false)} className='verify-popup'>
      <View className='verify-form'>
        <Text className='verify-intro muted'>填写问卷，试用期延长30天（每个团队一次）</Text>
        {field('name', '企业名称', '请输入企业名称')}
        {field('business_type', '行业', '请输入您的行业或工作性质')}
        <View className='verify-row verify-row--block'>
          <Text className='verify-row__label'>企业规模</Text>
          <Radio.Group className='verify-size' value={f.size ?? -1} direction='horizontal' onChange={(v) => vip.setVerifyField('size', Number(v))}>
            {COMPANY_SIZE_OPTIONS.map((label, i) => (
              <Radio key={label} value={i} shape='button'>
                {label}
              </Radio>
            ))}
          </Radio.Group>
        </View>
        {field('contacts', '您的称呼', '请输入您的称呼')}
        {field('post', '职位', '选填')}
        {answer('qa1', 0)}
        {answer('qa2', 1)}
        {answer('qa3', 2)}
        <Button block type='primary' className='verify-submit' loading={vip.verifySubmitting} onClick={() => void vip.submitVerify()}>
          提交问卷
        </Button>
      </View>
    </Popup>
  )
})

const ServiceSheet = observer(function ServiceSheet() {
  const { app } = useStores()
  const { service_phone: phone, service_url: url } = app.system_config
  return (
    <Popup visible={app.show_service_sheet} position='bottom' round closeable title={VIP_MSG.serviceTitle} onClose={() => app.setServiceSheet(false)} className='service-sheet'>
      <View className='service-body'>
        {url ? (
          <View className='service-qr'>
            <Image className='service-qr__image' src={qrDataUrl(url)} showMenuByLongpress />
            <Text className='muted'>微信扫码或长按识别，联系在线客服</Text>
            <Button size='small' fill='outline' type='primary' onClick={() => void app.copyText(url)}>
              复制客服链接
            </Button>
          </View>
        ) : null}
        {phone ? (
          <View className='service-phone'>
            <Text>客服电话：</Text>
            <Text className='service-phone__number' selectable>
              {phone}
            </Text>
          </View>
        ) : null}
        {!url && !phone ? <Text className='service-none muted'>{VIP_MSG.serviceNone}</Text> : null}
      </View>
    </Popup>
  )
})

/** Every membership dialog; `path` is the SPEC path of the page showing them. */
export const VipModals = observer(function VipModals({ path }: { path: string }) {
  return (
    <>
      <ExpiredDialog path={path} />
      <ReminderDialog path={path} />
      <TrialWelcome path={path} />
      <VerifyForm />
      <ServiceSheet />
    </>
  )
})

export default VipModals
