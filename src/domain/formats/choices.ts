/** The export formats and coordinate systems a user picks from, as the layer panel and the data list offer them. */
import type { ExportFormat, FileCrs } from '../../../types/mapdata'

export const EXPORT_FORMAT_CHOICES: { value: ExportFormat; label: string }[] = [
  { value: 'geojson', label: 'GeoJSON' },
  { value: 'kml', label: 'KML' },
  { value: 'kmz', label: 'KMZ' },
  { value: 'gpx', label: 'GPX' },
  { value: 'csv', label: 'CSV' },
  { value: 'xlsx', label: 'Excel' },
]

export const CRS_CHOICES: { value: FileCrs; label: string }[] = [
  { value: 'wgs84', label: 'WGS-84（GPS、通用GIS）' },
  { value: 'gcj02', label: 'GCJ-02（高德、微信）' },
]
