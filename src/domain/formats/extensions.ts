/** The file name endings the layer import offers to pick (formatOfFileName reads each of them). */
export const IMPORT_EXTENSIONS = ['geojson', 'json', 'kml', 'kmz', 'csv', 'txt']
