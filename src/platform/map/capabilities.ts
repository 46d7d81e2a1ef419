/** What the current platform's map can show: the neutral entry for TypeScript and tests (the mini-program's). Taro builds capabilities.weapp.ts or capabilities.h5.ts by suffix. */
export * from './capabilities.weapp'
