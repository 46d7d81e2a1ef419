/**
 * How the weapp build splits pages: the start-up pages (map, login, share view) in the main
 * package, every other page in a subpackage named after its first folder under pages/.
 */
import { MAIN_PACKAGE_PAGES, builtRoutes } from './routes'

export interface SubPackage {
  root: string
  pages: string[]
}

export function appPages(): { pages: string[]; subPackages: SubPackage[] } {
  const all = Array.from(new Set(builtRoutes().map((r) => r.page!)))
  // The map page first: it is the entry page.
  const main = MAIN_PACKAGE_PAGES.filter((p) => all.includes(p))
  const subs = new Map<string, string[]>()
  for (const page of all) {
    if (main.includes(page)) continue
    const [, folder] = page.split('/')
    const root = `pages/${folder}`
    const list = subs.get(root) ?? []
    list.push(page.slice(root.length + 1))
    subs.set(root, list)
  }
  return { pages: main, subPackages: Array.from(subs, ([root, pages]) => ({ root, pages })) }
}
