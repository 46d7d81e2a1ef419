import { CvrpFormatError, cvrpCost, cvrpDistances, cvrpProblem, cvrpRounding, cvrpRoutes, formatSol, formatVrp, parseSol, parseVrp } from '../../src/domain/vrp/cvrplib'
import { solveVrp } from '../../src/domain/vrp/solver'
import { disguise } from '../../bench/vrp'

// A small instance written the way CVRPLIB writes them (trailing spaces, a COMMENT with a colon).
const VRP = `NAME : T-n5-k2
COMMENT : (test, No of trucks: 2, Optimal value: 36)
TYPE : CVRP
DIMENSION : 5
EDGE_WEIGHT_TYPE : EUC_2D 
CAPACITY : 10
NODE_COORD_SECTION 
 1 0 0
 2 0 5
 3 1 8
 4 6 0
 5 9 1
DEMAND_SECTION 
1 0 
2 4 
3 5 
4 6 
5 3 
DEPOT_SECTION 
 1  
 -1  
EOF 
`

describe('reading CVRPLIB instances', () => {
  it('reads the header, the coordinates, the demands and the depot of a .vrp', () => {
    const inst = parseVrp(VRP)
    expect(inst.name).toBe('T-n5-k2')
    expect(inst.comment).toBe('(test, No of trucks: 2, Optimal value: 36)')
    expect(inst.dimension).toBe(5)
    expect(inst.capacity).toBe(10)
    expect(inst.x).toEqual([0, 0, 1, 6, 9])
    expect(inst.y).toEqual([0, 5, 8, 0, 1])
    expect(inst.demand).toEqual([0, 4, 5, 6, 3])
    expect(inst.depot).toBe(0)
  })

  it('reads a depot that is not the first node', () => {
    const inst = parseVrp(VRP.replace('DEPOT_SECTION \n 1  ', 'DEPOT_SECTION \n 3  '))
    expect(inst.depot).toBe(2)
  })

  it('refuses what it cannot read, saying what', () => {
    expect(() => parseVrp(VRP.replace('EUC_2D', 'EXPLICIT'))).toThrow(/EUC_2D/)
    expect(() => parseVrp(VRP.replace('5 3 \n', ''))).toThrow(/node 5 has no demand/)
    expect(() => parseVrp(VRP.replace(' 2 0 5\n', ''))).toThrow(/node 2 has no coordinates/)
    expect(() => parseVrp(VRP.replace('CAPACITY : 10', 'CAPACITY : x'))).toThrow(CvrpFormatError)
    expect(() => parseVrp(VRP.replace(' -1  ', ' 2\n -1'))).toThrow(/one depot/)
    expect(() => parseVrp(VRP.replace(' 3 1 8', ' 3 1 eight'))).toThrow(/unreadable line/)
  })

  it('reads a .sol with Cost or cost, customers numbered from 1', () => {
    const sol = parseSol('Route #1: 21 31 19 \nRoute #2: 12 1\ncost 784\n')
    expect(sol).toEqual({
      routes: [
        [21, 31, 19],
        [12, 1],
      ],
      cost: 784,
    })
    expect(parseSol('Route #1: 2\nCost 524.611').cost).toBeCloseTo(524.611, 6)
    expect(() => parseSol('Route #1: 2 3\n')).toThrow(/no Cost line/)
    expect(() => parseSol('Route #1: 2 x\nCost 5')).toThrow(/unreadable route/)
  })

  it('measures arcs rounded to the nearest integer (A, B, P) or unrounded (CMT)', () => {
    const inst = parseVrp(VRP)
    const rounded = cvrpDistances(inst, 'round')
    const exact = cvrpDistances(inst, 'exact')
    // node 1 (0,5) -> node 2 (1,8): sqrt(10) = 3.162...
    expect(rounded[1 * 5 + 2]).toBe(3)
    expect(exact[1 * 5 + 2]).toBeCloseTo(Math.sqrt(10), 12)
    expect(cvrpRounding(inst)).toBe('round')
    expect(cvrpRounding({ ...inst, name: 'CMT1' })).toBe('exact')
  })

  it('measures the cost of routes from the coordinates', () => {
    const inst = parseVrp(VRP)
    // 0 -> 1 -> 2 -> 0: 5 + 3 + 8 = 16 ; 0 -> 3 -> 4 -> 0: 6 + 3 + 9 = 18
    expect(
      cvrpCost(
        inst,
        [
          [1, 2],
          [3, 4],
        ],
        'round',
      ),
    ).toBe(34)
  })

  it('writes a .sol that reads back to the same routes and cost', () => {
    const text = formatSol(
      [
        [1, 2],
        [3, 4],
      ],
      34,
      'round',
    )
    expect(text).toBe('Route #1: 1 2\nRoute #2: 3 4\nCost 34\n')
    expect(parseSol(text)).toEqual({
      routes: [
        [1, 2],
        [3, 4],
      ],
      cost: 34,
    })
    expect(formatSol([[1]], 524.6112, 'exact')).toBe('Route #1: 1\nCost 524.61\n')
  })

  it('writes a .vrp that reads back to the same instance', () => {
    const inst = parseVrp(VRP)
    expect(parseVrp(formatVrp(inst))).toEqual(inst)
  })

  it('solves an instance into routes of CVRPLIB numbers that serve every customer once within capacity', () => {
    const inst = parseVrp(VRP)
    const { problem, customerNodes } = cvrpProblem(inst, 'round')
    const routes = cvrpRoutes(solveVrp(problem, { maxIterations: 200 }), customerNodes)
    expect(routes.flat().sort()).toEqual([1, 2, 3, 4])
    for (const r of routes) expect(r.reduce((s, node) => s + inst.demand[node], 0)).toBeLessThanOrEqual(10)
    // The optimum over every partition of the four customers that fits the capacity.
    expect(cvrpCost(inst, routes, 'round')).toBe(34)
  })

  it("the bench's disguised copy renumbers and mirrors the customers but keeps every distance, so the best-known cost still holds", () => {
    const inst = parseVrp(VRP)
    const { copy, order } = disguise(inst, 7)
    expect(copy.name).not.toBe(inst.name)
    expect([...order].sort()).toEqual([0, 1, 2, 3, 4])
    expect(order).not.toEqual([0, 1, 2, 3, 4])
    expect(copy.depot).toBe(order.indexOf(inst.depot))
    // Mirrored: x runs the other way; shifted: no coordinate is where it was.
    const mirror = copy.x.map((x, j) => x + inst.x[order[j]])
    expect(new Set(mirror).size).toBe(1)
    expect(copy.y.some((y, j) => y === inst.y[order[j]])).toBe(false)
    const before = cvrpDistances(inst, 'exact')
    const after = cvrpDistances(copy, 'exact')
    for (let a = 0; a < 5; a++) for (let b = 0; b < 5; b++) expect(after[a * 5 + b]).toBe(before[order[a] * 5 + order[b]])
    expect(copy.demand).toEqual(order.map((o) => inst.demand[o]))
  })
})
