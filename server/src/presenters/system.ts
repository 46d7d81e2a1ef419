/** Wire shape of the system config (SPEC 3 "Global app settings": system_config). */
import type { SystemConfig } from '../../../types/entities'
import type { SystemConfigRow } from '../db/schema'

export function presentSystemConfig(row: SystemConfigRow): SystemConfig {
  return {
    id: row.id,
    logo: row.logo,
    brand: row.brand,
    show_phone: row.show_phone === 1,
    sign_radius: row.sign_radius,
    show_marker_cluster_count: row.show_marker_cluster_count === 1,
    service_phone: row.service_phone,
    service_url: row.service_url,
  }
}
