export * from './entities'
export * from './api'
