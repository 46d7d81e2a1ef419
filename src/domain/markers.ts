/** Marker rules shared by /addinfo and the server: defaults (SPEC 9), style cleaning, field values. */
import type { FieldValue, LayerField, MarkerStyle, MarkerType } from '../../types/mapdata'
import { DEFAULT_LINE_SIZE, DEFAULT_MARKER_COLOR, DEFAULT_POINT_SIZE } from './constants'
import { isOwnFileUrl } from './fileUrl'
import { MAP_MSG } from './messages'
import { FILE_URL_MSG } from './systemMessages'
import { isDashed } from './points'
import { isArea, isPoint } from './markerKinds'

export const MARKER_NAME_MAX = 50
export const LAYER_NAME_MAX = 30
export const NOTE_MAX = 2000

/** SPEC 9: colour #165DFF; size 32 for points and 2 for lines and areas. */
export function defaultStyle(type: MarkerType): MarkerStyle {
  const style: MarkerStyle = { color: DEFAULT_MARKER_COLOR, size: isPoint(type) ? DEFAULT_POINT_SIZE : DEFAULT_LINE_SIZE }
  if (isArea(type)) Object.assign(style, { fill_color: DEFAULT_MARKER_COLOR, fill_opacity: 0.2 })
  if (isDashed(type)) style.dashed = true
  return style
}

export function defaultWidth(type: MarkerType): number {
  return isPoint(type) ? DEFAULT_POINT_SIZE : DEFAULT_LINE_SIZE
}

const COLOR = /^#([0-9a-fA-F]{6}|[0-9a-fA-F]{3}|[0-9a-fA-F]{8})$/

/** Keeps the known style keys with sane values; unknown keys are dropped (DESIGN 9). */
export function cleanStyle(input: unknown): MarkerStyle {
  const src = input && typeof input === 'object' ? (input as Record<string, unknown>) : {}
  const out: MarkerStyle = {}
  for (const key of ['color', 'fill_color'] as const) {
    const v = src[key]
    if (typeof v === 'string' && COLOR.test(v)) out[key] = v.toUpperCase()
  }
  for (const key of ['opacity', 'fill_opacity'] as const) {
    const v = src[key]
    if (typeof v === 'number' && Number.isFinite(v)) out[key] = Math.min(1, Math.max(0, v))
  }
  if (typeof src.dashed === 'boolean') out.dashed = src.dashed
  if (isOwnFileUrl(src.icon)) out.icon = src.icon
  if (typeof src.size === 'number' && Number.isFinite(src.size)) out.size = Math.min(200, Math.max(1, Math.round(src.size)))
  return out
}

/** A point's icon is one of the group's uploaded images or none: the message when it is anything else. */
export function styleIconProblem(input: unknown): string | null {
  const icon = input && typeof input === 'object' ? (input as Record<string, unknown>).icon : undefined
  return icon === undefined || icon === null || icon === '' || isOwnFileUrl(icon) ? null : FILE_URL_MSG.icon
}

const DATE = /^\d{4}-\d{2}-\d{2}$/
const PHONE = /^(1[3-9]\d{9}|0\d{2,3}-?\d{7,8}(-\d{1,6})?|400-?\d{3}-?\d{4})$/

/**
 * Checks and normalises custom field values against the layer's fields. Values of unknown fields
 * are dropped. Returns the cleaned values or the first problem.
 */
export function checkFieldValues(
  fields: LayerField[],
  values: Record<string, unknown> | undefined,
  /** What a photo value may be: an upload of ours (the server); the phone also accepts a photo its outbox keeps until it can upload it. */
  photoOk: (url: string) => boolean = isOwnFileUrl,
): { ok: true; values: Record<string, FieldValue> } | { ok: false; error: string } {
  const out: Record<string, FieldValue> = {}
  const src = values ?? {}
  for (const f of fields) {
    const raw = src[String(f.id)]
    const empty = raw === undefined || raw === null || raw === '' || (Array.isArray(raw) && raw.length === 0)
    if (empty) {
      if (f.required) return { ok: false, error: MAP_MSG.fieldRequired(f.name) }
      continue
    }
    switch (f.kind) {
      case 'text': {
        const v = String(raw).trim()
        if (!v && f.required) return { ok: false, error: MAP_MSG.fieldRequired(f.name) }
        if (v) out[f.id] = v.slice(0, 1000)
        break
      }
      case 'number': {
        const n = typeof raw === 'number' ? raw : Number(String(raw).trim())
        if (!Number.isFinite(n)) return { ok: false, error: MAP_MSG.fieldNumber(f.name) }
        out[f.id] = n
        break
      }
      case 'date': {
        const v = String(raw).trim()
        if (!DATE.test(v) || Number.isNaN(Date.parse(v))) return { ok: false, error: MAP_MSG.fieldDate(f.name) }
        out[f.id] = v
        break
      }
      case 'phone': {
        const v = String(raw).replace(/\s+/g, '')
        if (!PHONE.test(v)) return { ok: false, error: MAP_MSG.fieldPhone(f.name) }
        out[f.id] = v
        break
      }
      case 'choice': {
        const v = String(raw)
        if (!f.options.includes(v)) return { ok: false, error: MAP_MSG.fieldChoice(f.name) }
        out[f.id] = v
        break
      }
      case 'photo': {
        const list = (Array.isArray(raw) ? raw : [raw]).map(String).filter((u) => u.length > 0)
        if (!list.every(photoOk)) return { ok: false, error: FILE_URL_MSG.fieldPhoto(f.name) }
        if (list.length) out[f.id] = list.slice(0, 9)
        else if (f.required) return { ok: false, error: MAP_MSG.fieldRequired(f.name) }
        break
      }
    }
  }
  return { ok: true, values: out }
}

/** The text a search matches in field values. */
export function fieldValuesText(values: Record<string, FieldValue>): string {
  return Object.values(values)
    .flatMap((v) => (Array.isArray(v) ? [] : v === null ? [] : [String(v)]))
    .join(' ')
}
