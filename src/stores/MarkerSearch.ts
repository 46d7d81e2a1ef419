/**
 * Picking markers by name from a form (the stops of /route/add, the place of /task/add): a keyword,
 * one page of /api/marker/search, and whether a search has run (so "nothing found" can show).
 */
import { makeAutoObservable, observable, runInAction } from 'mobx'
import type { Marker } from '../../types/mapdata'
import type { RootStore } from './RootStore'

export class MarkerSearch {
  kw = ''
  results: Marker[] = []
  searching = false
  searched = false

  /**
   * @param emptyKwMessage said when searching without a keyword (nothing is asked then)
   * @param pageSize how many markers one search shows
   */
  constructor(
    private readonly root: RootStore,
    private readonly emptyKwMessage: string,
    private readonly pageSize: number,
  ) {
    makeAutoObservable<MarkerSearch, 'root' | 'emptyKwMessage' | 'pageSize'>(this, { root: false, emptyKwMessage: false, pageSize: false, results: observable.ref })
  }

  setKw(kw: string): void {
    this.kw = kw
  }

  async search(kw: string = this.kw): Promise<boolean> {
    const text = kw.trim()
    this.kw = kw
    if (!text) {
      this.root.app.notify(this.emptyKwMessage, 'warning')
      return false
    }
    this.searching = true
    const res = await this.root.read('/api/marker/search', { kw: text, pageindex: 1, pagesize: this.pageSize })
    runInAction(() => {
      this.searching = false
      if (!res) return
      this.results = res.list
      this.searched = true
    })
    return !!res
  }

  clear(): void {
    this.kw = ''
    this.results = []
    this.searched = false
  }
}
