/**
 * The map view: a platform view component (Taro picks MapView.h5.tsx or MapView.weapp.tsx by suffix),
 * so pages reach it through this module rather than platform/ itself.
 */
export { MapView, type MapViewProps } from '../../platform/map/MapView'
