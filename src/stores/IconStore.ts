/**
 * The group's custom point icons (/api/system/get/icon, save/icon, delete/icon). Every
 * member picks from them for a point's style; group managers upload new ones and delete them.
 */
import { makeAutoObservable, observable, runInAction } from 'mobx'
import type { Icon, Upload } from '../../types/mapdata'
import { MAP_IO_MSG, MAP_UI_MSG, MSG } from '../domain/messages'
import type { RootStore } from './RootStore'

/** Uploads a picked image and resolves to the server's answer (undefined when it failed or was cancelled). */
export type IconUpload = () => Promise<Upload | undefined>

export const ICON_NAME_MAX = 20

export class IconStore {
  list: Icon[] = []
  loaded = false
  busy = false

  constructor(private readonly root: RootStore) {
    makeAutoObservable<IconStore, 'root'>(this, { root: false, list: observable.ref })
  }

  /** Only group managers add and delete icons (the server checks it too). */
  get canManage(): boolean {
    return this.root.layers.isManager
  }

  async load(): Promise<boolean> {
    const list = await this.root.api.post('/api/system/get/icon', {})
    runInAction(() => {
      if (list) {
        this.list = list
        this.loaded = true
      }
    })
    return !!list
  }

  ensure(): Promise<boolean> {
    return this.loaded ? Promise.resolve(true) : this.load()
  }

  check(name: string): string | null {
    const n = name.trim()
    if (!n) return MAP_IO_MSG.iconNameRequired
    if (n.length > ICON_NAME_MAX) return MAP_UI_MSG.iconNameTooLong(ICON_NAME_MAX)
    return null
  }

  /** Uploads the image first, then saves the icon under its name; nothing is saved when either fails. */
  async add(name: string, upload: IconUpload): Promise<Icon | undefined> {
    const problem = this.check(name)
    if (problem) {
      this.root.app.notify(problem, 'warning')
      return undefined
    }
    if (this.busy) return undefined
    this.busy = true
    try {
      const file = await upload()
      if (!file) return undefined
      const saved = await this.root.api.post('/api/system/save/icon', { name: name.trim(), url: file.url })
      if (!saved) return undefined
      runInAction(() => {
        this.list = [...this.list, saved]
        this.root.app.notify(MSG.savedOk, 'success')
      })
      return saved
    } finally {
      runInAction(() => {
        this.busy = false
      })
    }
  }

  async remove(id: number): Promise<boolean> {
    const ok = await this.root.api.request('/api/system/delete/icon', { id }).then(
      () => true,
      () => false,
    )
    if (ok)
      runInAction(() => {
        this.list = this.list.filter((i) => i.id !== id)
        this.root.app.notify(MAP_UI_MSG.deletedOk, 'success')
      })
    return ok
  }

  reset(): void {
    this.list = []
    this.loaded = false
    this.busy = false
  }
}
