/**
 * Messages of file import beyond the basic ones in messages.ts: what is wrong with a record (the
 * parsers and the server), what a file holds and where its kinds went (the import dialog). Apart from messages.ts, which every page loads (the
 * /login budget has no room): only the import dialog (a lazy chunk), the parsers and the server use these.
 */
export const IMPORT_MSG = {
  /** A KML Placemark with no geometry element at all (a folder note, a lost shape): not the same as empty coordinates. */
  noGeometry: '该地标没有几何数据',
  /** A GeoJSON Feature whose geometry is null. */
  featureNoGeometry: '该要素没有几何数据',
  kmzNoKml: 'KMZ文件中没有KML文档',
  /** A zip (KMZ, xlsx, zipped Shapefile) that inflates past the caps of formats/zip.ts. */
  zipTooLarge: '文件解压后过大，请拆分后再导入',
  /** A zip with no readable Shapefile: the .shp needs its .shx and .dbf beside it. */
  shpUnreadable: 'ZIP文件中没有可读取的Shapefile，请把同名的.shp、.shx、.dbf（和.prj）文件一起压缩后导入',
  /** A table row with an empty address, in a file placed by its addresses. */
  addressMissing: '缺少地址',
  addressNotFound: (address: string) => `找不到地址“${address}”，请写完整（省市区+街道门牌）或改填经纬度`,
  /** A table of addresses only, on a server without AMap's web service key: what the user can do. */
  geocodeUnavailable: '文件中只有地址、没有经纬度：本服务器未开通按地址定位，请在文件中加入经度、纬度列（或WKT列）后导入',
  geocodeTooMany: (max: number) => `按地址定位一次最多${max}个不同的地址，请拆分文件后导入`,
  geocodeFailed: '按地址定位暂时不可用，请稍后重试，或在文件中加入经度、纬度列',
  cancelled: '已取消导入，没有写入任何数据',
  /** An Excel 97-2003 file: only the zipped .xlsx of Excel 2007 and later is read. */
  xlsOld: '暂不支持旧版Excel（.xls）文件，请在Excel或WPS中另存为.xlsx后再导入',
  /** The layer an import makes for a kind of the file that the chosen layer cannot hold: 文件名-线. */
  siblingLayer: (base: string, kind: 1 | 2 | 3) => `${base}-${({ 1: '点', 2: '线', 3: '面' } as const)[kind]}`,
  descriptionTooLong: (max: number) => `描述超过${max}个字，图层中没有“description”字段时描述会存为备注，请缩短描述或添加该字段`,
} as const

/** The import dialog's (a separate object, so that the client's bundle leaves out the parsers' and the server's). */
export const IMPORT_UI_MSG = {
  tip: '支持 GeoJSON、KML、KMZ、GPX、Excel（.xlsx）、Shapefile（.zip 压缩包）、CSV/TXT（名称、经度、纬度列，WKT 列，或地址列）。与图层类型不同的点、线、面导入新建的同级图层。有错误的行时不会导入任何数据。',
  /** What an import file holds: 文件中有3个点、1条线、2个面、1个没有几何数据的地标. */
  holds: (s: { points: number; lines: number; areas: number; no_geometry: number }) =>
    `文件中有${[`${s.points}个点`, `${s.lines}条线`, `${s.areas}个面`, ...(s.no_geometry ? [`${s.no_geometry}个没有几何数据的地标`] : [])].join('、')}`,
  split: (n: number) => `${n}个多部件要素已拆分`,
  intoLayer: (name: string, n: number, created: boolean) => `${name}${created ? '（新建图层）' : ''}：${n}条`,
  notes: (n: number) => `${n}条描述存为备注`,
  /** Under the progress bar: what the import is doing. */
  phase: (p: { phase: string; done: number; total: number } | null) =>
    !p
      ? '正在上传文件…'
      : p.phase === 'reading'
        ? '正在读取文件…'
        : p.phase === 'geocoding'
          ? `正在按地址定位 ${p.done}/${p.total}`
          : p.phase === 'checking'
            ? `正在检查数据 ${p.done}/${p.total}`
            : p.phase === 'writing'
              ? `正在写入${p.total}条数据…`
              : p.phase === 'cancelled'
                ? '正在取消…'
                : '导入完成',
  cancel: '取消导入',
  tooLateToCancel: '数据正在写入，无法取消',
} as const
