/** Wire shapes of notes, title styles, icons and layer fields (types/mapdata.ts); pure functions of loaded rows. */
import type { FieldKind, Icon, LayerField, Note, TitleStyle } from '../../../types/mapdata'
import type { FieldRow } from '../db/fields'
import type { IconRow } from '../db/icons'
import { photosOf, type NoteRow } from '../db/notes'
import type { TitleStyleRow } from '../db/title-styles'

export function presentNote(row: NoteRow, userName: string): Note {
  const note: Note = {
    id: row.id,
    marker_id: row.marker_id,
    content: row.content,
    photos: photosOf(row),
    user_id: row.user_id,
    user_name: userName,
    rev: row.rev,
    created_at: row.created_at,
    updated_at: row.updated_at,
  }
  if (row.client_id !== null) note.client_id = row.client_id
  return note
}

/** What the log shows as a note's name: its first characters, or that it is photos only. */
export function noteLogName(row: Pick<NoteRow, 'content' | 'photos'>): string {
  const text = row.content.trim().replace(/\s+/g, ' ')
  if (text) return text.length > 20 ? `${text.slice(0, 20)}…` : text
  return `[照片${photosOf(row).length}张]`
}

export function presentTitleStyle(row: Omit<TitleStyleRow, 'group_id'>): TitleStyle {
  return {
    id: row.id,
    layer_id: row.layer_id,
    font_size: row.font_size,
    color: row.color,
    bg_color: row.bg_color,
    padding: row.padding,
    border_weight: row.border_weight,
    border_color: row.border_color,
    rev: row.rev,
  }
}

export function presentIcon(row: IconRow): Icon {
  return { id: row.id, name: row.name, url: row.url }
}

export function toLayerField(row: FieldRow): LayerField {
  let options: string[] = []
  try {
    const value: unknown = JSON.parse(row.options)
    if (Array.isArray(value)) options = value.map(String)
  } catch {
    options = []
  }
  return { id: row.id, layer_id: row.layer_id, name: row.name, kind: row.kind as FieldKind, options, required: row.required === 1, sort: row.sort, rev: row.rev }
}
