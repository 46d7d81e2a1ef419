/** H5: download through a Blob link; import through a hidden <input type=file> and FileReader (the file's bytes, as base64). */
import type { ExportFile } from '../../../types/mapdata'
import type { FileAdapter, PickedTextFile, SavedFile } from './types'

export type { FileAdapter, PickedTextFile, SavedFile } from './types'

function textBlob(file: ExportFile): Blob {
  // A BOM lets spreadsheet programs read Chinese CSV as UTF-8.
  const text = file.mime.includes('csv') && !file.content.startsWith('\uFEFF') ? '\uFEFF' + file.content : file.content
  return new Blob([text], { type: `${file.mime || 'text/plain'};charset=utf-8` })
}

function bytesOfBase64(base64: string): Uint8Array<ArrayBuffer> {
  const binary = atob(base64)
  const bytes = new Uint8Array(binary.length)
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i)
  return bytes
}

function download(file: ExportFile): void {
  const blob = file.encoding === 'base64' ? new Blob([bytesOfBase64(file.content)], { type: file.mime }) : textBlob(file)
  const url = URL.createObjectURL(blob)
  const a = document.createElement('a')
  a.href = url
  a.download = file.filename
  a.rel = 'noopener'
  a.style.display = 'none'
  document.body.appendChild(a)
  a.click()
  setTimeout(() => {
    URL.revokeObjectURL(url)
    a.remove()
  }, 1000)
}

function pick(extensions: string[]): Promise<PickedTextFile | null> {
  return new Promise((resolve, reject) => {
    const input = document.createElement('input')
    input.type = 'file'
    input.accept = extensions.map((e) => `.${e}`).join(',')
    input.style.position = 'fixed'
    input.style.left = '-3000px'
    input.setAttribute('data-testid', 'import-file-input')
    let settled = false
    const done = (v: PickedTextFile | null, err?: unknown) => {
      if (settled) return
      settled = true
      input.remove()
      if (err) reject(err)
      else resolve(v)
    }
    input.addEventListener('change', () => {
      const f = input.files?.[0]
      if (!f) return done(null)
      const reader = new FileReader()
      // A data URL is the bytes as base64 after the first comma: 'data:text/csv;base64,....'.
      reader.onload = () => {
        const url = String(reader.result ?? '')
        done({ name: f.name, content: '', base64: url.slice(url.indexOf(',') + 1) })
      }
      reader.onerror = () => done(null, reader.error)
      reader.readAsDataURL(f)
    })
    // Browsers without a cancel event leave the promise open; a later pick replaces it.
    input.addEventListener('cancel', () => done(null))
    document.body.appendChild(input)
    input.click()
  })
}

export const files: FileAdapter = {
  async saveTextFile(file: ExportFile): Promise<SavedFile> {
    download(file)
    return { name: file.filename, path: '', needsShare: false }
  },
  async shareSavedFile() {
    // the browser already downloaded it
  },
  pickTextFile: pick,
}
