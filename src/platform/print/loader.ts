/** How the stores get the print platform: the neutral entry for TypeScript and tests (the mini-program's). Taro builds loader.weapp.ts or loader.h5.ts by suffix. */
export * from './loader.weapp'
