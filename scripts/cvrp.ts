/**
 * `npm run -s cvrp -- file.vrp [--time seconds] [--seed n] [--round|--exact]`: solves a CVRPLIB
 * instance with the product's routing solver and prints the routes and cost in the `.sol` format.
 * Distances follow CVRPLIB: rounded to the nearest integer, unrounded for the CMT set (or as told).
 */
import fs from 'node:fs'
import { cvrpCost, cvrpProblem, cvrpRounding, cvrpRoutes, formatSol, parseVrp, type CvrpRounding } from '../src/domain/vrp/cvrplib'
import { solveVrp } from '../src/domain/vrp/solver'

function main(argv: string[]): number {
  let file: string | undefined
  let seconds: number | undefined
  let seed = 1
  let rounding: CvrpRounding | undefined
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]
    if (a === '--time') seconds = Number(argv[++i])
    else if (a === '--seed') seed = Number(argv[++i])
    else if (a === '--round') rounding = 'round'
    else if (a === '--exact') rounding = 'exact'
    else if (!a.startsWith('--') && !file) file = a
    else {
      console.error(`unknown argument: ${a}`)
      return 2
    }
  }
  if (!file || (seconds !== undefined && !(seconds > 0)) || !Number.isInteger(seed)) {
    console.error('usage: npm run -s cvrp -- file.vrp [--time seconds] [--seed n] [--round|--exact]')
    return 2
  }
  const instance = parseVrp(fs.readFileSync(file, 'utf8'))
  const mode = rounding ?? cvrpRounding(instance)
  const customers = instance.dimension - 1
  // The goal's budgets: 2 s up to 100 customers, 5 s up to 200, and more for larger instances.
  const timeLimitMs = seconds !== undefined ? seconds * 1000 : customers <= 100 ? 1900 : customers <= 200 ? 4800 : 10_000
  const { problem, customerNodes } = cvrpProblem(instance, mode)
  const solution = solveVrp(problem, { timeLimitMs, seed })
  const routes = cvrpRoutes(solution, customerNodes)
  process.stdout.write(formatSol(routes, cvrpCost(instance, routes, mode), mode))
  if (solution.unassigned.length) {
    console.error(`${solution.unassigned.length} customers cannot be served (a demand above the capacity)`)
    return 1
  }
  return 0
}

process.exitCode = main(process.argv.slice(2))
