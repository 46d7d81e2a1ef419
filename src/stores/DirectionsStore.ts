/**
 * 导航 from any place the app shows (a marker's detail, a route's stop, a task, a shared marker):
 * checks the place, then hands it to the platform's map (WeChat's map page, our host app, or AMap in
 * the browser). Nothing leaves the phone before the tap; a place without coordinates says so and
 * opens nothing.
 */
import { makeAutoObservable, runInAction } from 'mobx'
import { navPlaceProblem, type NavPlace } from '../domain/directions'
import { DIRECTIONS_MSG } from '../domain/directionsMessages'
import type { DirectionsOutcome } from '../platform/directions/types'
import type { RootStore } from './RootStore'

export class DirectionsStore {
  /** True while a place is being handed over: a second tap meanwhile opens nothing more. */
  opening = false

  constructor(private readonly root: RootStore) {
    makeAutoObservable<DirectionsStore, 'root'>(this, { root: false })
  }

  /**
   * Opens navigation to the place; null when the place has no usable coordinates (the user is told)
   * or one is already opening. The platform is called within the tap (no wait before it): a browser
   * opens a new tab only then.
   */
  open(place: NavPlace | null | undefined): Promise<DirectionsOutcome | null> {
    const problem = navPlaceProblem(place)
    if (problem || !place) {
      this.root.app.notify(problem ?? DIRECTIONS_MSG.noPlace, 'warning')
      return Promise.resolve(null)
    }
    if (this.opening) return Promise.resolve(null)
    this.opening = true
    return this.root.platform.directions
      .open(place)
      .catch((): DirectionsOutcome => 'failed')
      .then((outcome) => {
        runInAction(() => {
          this.opening = false
        })
        if (outcome === 'failed') this.root.app.notify(DIRECTIONS_MSG.openFailed, 'danger')
        return outcome
      })
  }
}
