/**
 * GCJ-02 (what WeChat's map and AMap use, and what we store) <-> WGS-84 (OSM tiles, GPS files).
 * The standard published transform; outside China the two are the same.
 */
const A = 6378245.0
const EE = 0.006693421622965943

export interface LngLat {
  lng: number
  lat: number
}

export function outOfChina(lng: number, lat: number): boolean {
  return lng < 72.004 || lng > 137.8347 || lat < 0.8293 || lat > 55.8271
}

function transformLat(x: number, y: number): number {
  let ret = -100.0 + 2.0 * x + 3.0 * y + 0.2 * y * y + 0.1 * x * y + 0.2 * Math.sqrt(Math.abs(x))
  ret += ((20.0 * Math.sin(6.0 * x * Math.PI) + 20.0 * Math.sin(2.0 * x * Math.PI)) * 2.0) / 3.0
  ret += ((20.0 * Math.sin(y * Math.PI) + 40.0 * Math.sin((y / 3.0) * Math.PI)) * 2.0) / 3.0
  ret += ((160.0 * Math.sin((y / 12.0) * Math.PI) + 320 * Math.sin((y * Math.PI) / 30.0)) * 2.0) / 3.0
  return ret
}

function transformLng(x: number, y: number): number {
  let ret = 300.0 + x + 2.0 * y + 0.1 * x * x + 0.1 * x * y + 0.1 * Math.sqrt(Math.abs(x))
  ret += ((20.0 * Math.sin(6.0 * x * Math.PI) + 20.0 * Math.sin(2.0 * x * Math.PI)) * 2.0) / 3.0
  ret += ((20.0 * Math.sin(x * Math.PI) + 40.0 * Math.sin((x / 3.0) * Math.PI)) * 2.0) / 3.0
  ret += ((150.0 * Math.sin((x / 12.0) * Math.PI) + 300.0 * Math.sin((x / 30.0) * Math.PI)) * 2.0) / 3.0
  return ret
}

function delta(lng: number, lat: number): LngLat {
  let dLat = transformLat(lng - 105.0, lat - 35.0)
  let dLng = transformLng(lng - 105.0, lat - 35.0)
  const radLat = (lat / 180.0) * Math.PI
  let magic = Math.sin(radLat)
  magic = 1 - EE * magic * magic
  const sqrtMagic = Math.sqrt(magic)
  dLat = (dLat * 180.0) / (((A * (1 - EE)) / (magic * sqrtMagic)) * Math.PI)
  dLng = (dLng * 180.0) / ((A / sqrtMagic) * Math.cos(radLat) * Math.PI)
  return { lng: dLng, lat: dLat }
}

export function wgs84ToGcj02(p: LngLat): LngLat {
  if (outOfChina(p.lng, p.lat)) return { ...p }
  const d = delta(p.lng, p.lat)
  return { lng: p.lng + d.lng, lat: p.lat + d.lat }
}

/** Inverse by fixed-point iteration: accurate to well under a centimetre. */
export function gcj02ToWgs84(p: LngLat): LngLat {
  if (outOfChina(p.lng, p.lat)) return { ...p }
  let wgs = { lng: p.lng, lat: p.lat }
  for (let i = 0; i < 10; i++) {
    const g = wgs84ToGcj02(wgs)
    const dLng = g.lng - p.lng
    const dLat = g.lat - p.lat
    wgs = { lng: wgs.lng - dLng, lat: wgs.lat - dLat }
    if (Math.abs(dLng) < 1e-10 && Math.abs(dLat) < 1e-10) break
  }
  return wgs
}

/** Great-circle distance in metres. */
export function distanceMeters(a: LngLat, b: LngLat): number {
  const R = 6371008.8
  const toRad = (d: number) => (d * Math.PI) / 180
  const dLat = toRad(b.lat - a.lat)
  const dLng = toRad(b.lng - a.lng)
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(toRad(a.lat)) * Math.cos(toRad(b.lat)) * Math.sin(dLng / 2) ** 2
  return 2 * R * Math.asin(Math.sqrt(h))
}

/** Tian'anmen in GCJ-02: the default centre before the user's position is known. */
export const DEFAULT_CENTER: LngLat = { lng: 116.397428, lat: 39.90923 }
