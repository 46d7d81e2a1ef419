/** Saves that arrive together on SQLite share one commit, yet each keeps its own answer: a refused one writes nothing and the others stand. */
import { sql } from 'kysely'
import { ErrCode } from '../../types/api'
import { expectOk, makeLayer, makeTeam, type Team } from './mapdata-fixture'

let team: Team
beforeEach(async () => {
  team = await makeTeam()
})
afterEach(() => team.t.close())

async function rowsOf(table: 'markers' | 'oplog' | 'sync_changes'): Promise<number> {
  const { rows } = await sql<{ n: number | string }>`select count(*) as n from ${sql.table(table)} where group_id = ${team.groupId}`.execute(team.t.db.kysely)
  return Number(rows[0].n)
}

describe('marker saves at the same time', () => {
  it('should answer each on its own: the good ones saved with their log entries, a bad one refused with its message and nothing written', async () => {
    const { t, owner } = team
    const layer = await makeLayer(t, owner, '水井', 1)
    const save = (i: number, points: string) => t.call('/api/marker/save', { layer_id: layer, name: `井${i}`, type: 0, points }, owner)
    const alone = await save(0, '不是坐标')
    expect(alone.errcode).toBe(ErrCode.VALIDATION)
    const [opsBefore, changesBefore] = [await rowsOf('oplog'), await rowsOf('sync_changes')]

    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => save(i + 1, i % 4 === 3 ? '不是坐标' : `116.${i + 1},39.9`)))

    answers.forEach((res, i) => {
      if (i % 4 === 3) expect({ errcode: res.errcode, errmsg: res.errmsg }).toEqual({ errcode: ErrCode.VALIDATION, errmsg: alone.errmsg })
      else expect(expectOk(res)).toMatchObject({ name: `井${i + 1}`, layer_id: layer })
    })
    expect(await rowsOf('markers')).toBe(9)
    expect(await rowsOf('oplog')).toBe(opsBefore + 9)
    expect(await rowsOf('sync_changes')).toBe(changesBefore + 9)
    const listed = expectOk(await t.call('/api/marker/getlist', { layer_ids: [layer], pageindex: 1, pagesize: 100 }, owner))
    expect(listed.list.map((m: { name: string }) => m.name).sort()).toEqual(answers.flatMap((res, i) => (i % 4 === 3 ? [] : [`井${i + 1}`])).sort())
  })
})
