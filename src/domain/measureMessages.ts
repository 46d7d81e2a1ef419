/** What the map's measuring bar says (src/domain/measure.ts). */
export const MEASURE_MSG = {
  /** The map tool that starts measuring. */
  tool: '测量',
  lengthMode: '测距',
  areaMode: '测面积',
  lengthStart: '点击地图选择起点',
  lengthNext: '继续点击地图，添加下一个点',
  lengthMore: '继续点击添加点，可撤销或清除',
  areaNeeds: (more: number): string => `继续点击地图，再添加${more}个点即可计算面积`,
  areaMore: '继续点击添加顶点，面积自动闭合计算',
  length: (formatted: string): string => `总长 ${formatted}`,
  lastSegment: (formatted: string): string => `最后一段 ${formatted}`,
  area: (formatted: string): string => `面积 ${formatted}`,
  perimeter: (formatted: string): string => `周长 ${formatted}`,
  tooMany: (max: number): string => `最多${max}个测量点，可撤销或清除后继续`,
  /** 测量 tapped while a marker is being drawn or moved: those taps are not thrown away. */
  busyDrawing: '正在绘制或调整标注，请先完成或取消后再测量',
  undo: '撤销',
  clear: '清除',
  done: '完成',
} as const
