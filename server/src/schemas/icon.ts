/** Zod of /api/system/get/icon, save/icon, delete/icon: the group's custom point icons. */
import { z } from 'zod'
import { MAP_IO_MSG } from '../../../src/domain/messages'
import { FILE_URL_MSG } from '../../../src/domain/systemMessages'
import { fileUrlField, idField } from './common'

export const ICON_NAME_MAX = 20

export const iconSave = z.object({
  id: idField().optional(),
  name: z.string({ required_error: MAP_IO_MSG.iconNameRequired }).trim().min(1, MAP_IO_MSG.iconNameRequired).max(ICON_NAME_MAX),
  url: z.string({ required_error: MAP_IO_MSG.iconUrlRequired }).trim().min(1, MAP_IO_MSG.iconUrlRequired).pipe(fileUrlField(FILE_URL_MSG.icon)),
})

export const iconDeleteFields = z.object({ id: idField() })
