/** Custom fields of a layer: the kinds and the limits that the /fields page and the server both apply. */
import type { FieldKind } from '../../types/mapdata'

export const FIELD_KINDS: readonly [FieldKind, ...FieldKind[]] = ['text', 'number', 'date', 'choice', 'phone', 'photo']
export const FIELD_NAME_MAX = 20
export const FIELD_OPTIONS_MAX = 50
