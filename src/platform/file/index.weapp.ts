/**
 * Export and import files (the mini-program): WeChat writes the file to the user data folder and
 * shares it to a chat; import picks a file from a chat (chooseMessageFile) and reads its bytes
 * (as base64) with the FileSystemManager.
 */
import Taro from '@tarojs/taro'
import type { ExportFile } from '../../../types/mapdata'
import type { FileAdapter, PickedTextFile, SavedFile } from './types'

export type { FileAdapter, PickedTextFile, SavedFile } from './types'

/** File names WeChat accepts in the user data folder. */
function safeName(name: string): string {
  return name.replace(/[\\/:*?"<>|\s]+/g, '_') || `export_${Date.now()}.txt`
}

export const files: FileAdapter = {
  saveTextFile(file: ExportFile): Promise<SavedFile> {
    const name = safeName(file.filename)
    const path = `${Taro.env.USER_DATA_PATH}/${name}`
    return new Promise((resolve, reject) => {
      Taro.getFileSystemManager().writeFile({
        filePath: path,
        data: file.content,
        // KMZ and Excel come as their bytes in base64.
        encoding: file.encoding === 'base64' ? 'base64' : 'utf8',
        success: () => resolve({ name, path, needsShare: true }),
        fail: (e) => reject(new Error(e.errMsg)),
      })
    })
  },
  async shareSavedFile(saved: SavedFile): Promise<void> {
    await Taro.shareFileMessage({ filePath: saved.path, fileName: saved.name })
  },
  async pickTextFile(extensions: string[]): Promise<PickedTextFile | null> {
    let picked: Taro.chooseMessageFile.ChooseFile | undefined
    try {
      const res = await Taro.chooseMessageFile({ count: 1, type: 'file', extension: extensions })
      picked = res.tempFiles[0]
    } catch {
      return null
    }
    if (!picked) return null
    const chosen = picked
    return new Promise((resolve, reject) => {
      Taro.getFileSystemManager().readFile({
        filePath: chosen.path,
        encoding: 'base64',
        success: (r) => resolve({ name: chosen.name, content: '', base64: typeof r.data === 'string' ? r.data : '' }),
        fail: (e) => reject(new Error(e.errMsg)),
      })
    })
  },
}
