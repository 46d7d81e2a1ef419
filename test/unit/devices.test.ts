/** How settings names a signed-in device from its sign-in's header.device and header.os. */
import { deviceLabel } from '../../src/domain/devices'

describe('deviceLabel', () => {
  it('names the app kinds and systems in Chinese', () => {
    expect(deviceLabel('app_weapp', 'android')).toBe('微信小程序 · Android')
    expect(deviceLabel('app_h5', 'ios')).toBe('网页 · iOS')
  })

  it('shows an unknown kind as sent, and a sign-in that said nothing as 未知设备', () => {
    expect(deviceLabel('app_pad', '')).toBe('pad')
    expect(deviceLabel('', '')).toBe('未知设备')
  })
})
