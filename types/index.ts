export * from './entities'
export * from './api'
export * from './mapdata'
export * from './teams'
