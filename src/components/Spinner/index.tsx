/**
 * The spinning ring of NutUI's Loading (given as its `icon`), drawn by the stylesheet. NutUI's own
 * icon is an SVG image, and the browser builds a document of its own for each SVG image it shows:
 * on H5 the first of a page cost 30-120 ms in one task at 4x CPU throttling, and the loading mask
 * appears in the middle of a large map's load.
 */
import { View } from '@tarojs/components'
import './index.scss'

export function Spinner() {
  return <View className='spinner' aria-hidden='true' />
}
