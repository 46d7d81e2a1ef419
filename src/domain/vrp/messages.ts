/** The routing solver's messages: why a stop is left out, and what is wrong with a problem. */
import type { VrpReason } from './types'

export const VRP_REASON_TEXT: Record<VrpReason, string> = {
  capacity: '超出载重',
  shift: '超出工作时长',
  window: '时间窗冲突',
}

export const VRP_MSG = {
  noVehicles: '请至少选择一名司机',
  noStops: '请至少选择一个站点',
  matrixInvalid: '行程矩阵与地点数量不符',
  stopLocationInvalid: (n: number): string => `第${n}个站点的位置不正确`,
  stopDemandInvalid: (n: number): string => `第${n}个站点的货量不正确`,
  stopServiceInvalid: (n: number): string => `第${n}个站点的服务时长不正确`,
  windowInvalid: (n: number): string => `第${n}个站点的时间窗结束早于开始`,
  stopVehicleInvalid: (n: number): string => `第${n}个站点固定的司机不在本次计划中`,
  vehicleLocationInvalid: (n: number): string => `第${n}名司机的出发地或终点不正确`,
  capacityInvalid: (n: number): string => `第${n}名司机的载重必须大于0`,
  shiftInvalid: (n: number): string => `第${n}名司机的工作时长必须大于0`,
  initialInvalid: '初始方案中的站点重复或不存在',
} as const

/** Bad input to the solver: the message says which stop or driver, in Chinese. */
export class VrpInputError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'VrpInputError'
  }
}
