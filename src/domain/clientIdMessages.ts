/** What the server answers a create whose client-generated id (src/domain/clientId.ts) breaks the rule. */

export const CLIENT_ID_MSG = {
  invalid: '客户端编号无效（8-64位字母、数字、下划线或连字符）',
} as const
