/** The routing solver: plans vehicles' runs over a travel matrix (see types.ts for the contract). */
export * from './types'
export { solveVrp, evaluatePlan, VRP_SETTINGS, type VrpPlanCheck } from './solver'
export { VRP_MSG, VRP_REASON_TEXT, VrpInputError } from './messages'
