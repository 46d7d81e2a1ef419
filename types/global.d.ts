/// <reference types="@tarojs/taro" />

declare module '*.png'
declare module '*.gif'
declare module '*.jpg'
declare module '*.jpeg'
declare module '*.svg'
declare module '*.css'
declare module '*.scss'

/** Build-time constants (config/index.ts defineConstants). */
declare const API_BASE: string
declare const AMAP_KEY: string
declare const AMAP_SECURITY_CODE: string
declare const MAP_TILE_URL: string
declare const MAP_TILE_ATTRIBUTION: string

declare namespace NodeJS {
  interface ProcessEnv {
    NODE_ENV: 'development' | 'production' | 'test'
    TARO_ENV: 'weapp' | 'h5' | undefined
    TARO_APP_ID: string
  }
}

/** shpjs ships no types: a zipped Shapefile's bytes to GeoJSON, one collection per .shp inside. */
declare module 'shpjs' {
  export default function shp(input: ArrayBuffer | Uint8Array): Promise<unknown>
}
