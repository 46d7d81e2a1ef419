/** The privacy adapter: the neutral entry for TypeScript and tests (the mini-program's). Taro builds index.weapp.ts or index.h5.ts by suffix. */
export * from './index.weapp'
