/** One JSON line per figure (DESIGN 7): name, value, unit, budget and whether it met it. */
export function emit(name: string, value: number, unit: string, budget: number, lowerIsBetter = true): void {
  const ok = lowerIsBetter ? value <= budget : value >= budget
  console.log(JSON.stringify({ name, value, unit, budget, ok }))
}
