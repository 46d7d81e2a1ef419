/** How a signed-in device is named in settings, from the session's header.device and header.os. */
import { DEVICE_LABELS } from './consentMessages'

export function deviceLabel(device: string, os: string): string {
  const kind = DEVICE_LABELS[device] ?? (device.replace(/^app_/, '') || '未知设备')
  const system = DEVICE_LABELS[os] ?? os
  return system ? `${kind} · ${system}` : kind
}
