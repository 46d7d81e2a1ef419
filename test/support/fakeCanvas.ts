/** A 2D context that records every call and property set, in order (the canvas itself runs in the browser: e2e and the bench). */
export type Call = [string, ...unknown[]]
export function fakeContext() {
  const calls: Call[] = []
  const state: Record<string, unknown> = {}
  const ctx = new Proxy(state, {
    get(target, prop: string) {
      if (prop in target) return target[prop]
      return (...args: unknown[]) => calls.push([prop, ...args])
    },
    set(target, prop: string, value) {
      target[prop] = value
      calls.push([`=${prop}`, value])
      return true
    },
  }) as unknown as CanvasRenderingContext2D
  return { ctx, calls, count: (name: string) => calls.filter((c) => c[0] === name).length }
}
