/** Short date-time labels (dayjs, in the phone's own time zone). */
import dayjs from 'dayjs'

function format(iso: string, pattern: string): string {
  const d = dayjs(iso)
  return d.isValid() ? d.format(pattern) : ''
}

/** Month-day hour:minute, for members' positions on the map. */
export function shortTime(iso: string): string {
  return format(iso, 'MM-DD HH:mm')
}

/** Year-month-day hour:minute, for notes and log entries. */
export function dateTime(iso: string): string {
  return format(iso, 'YYYY-MM-DD HH:mm')
}
