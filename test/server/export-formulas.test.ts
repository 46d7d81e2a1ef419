/** CSV and Excel exports never hand a spreadsheet a formula to run: not in a value, not in a header cell (a field's name). */
import { readSheet } from 'read-excel-file/node'
import { safeCell } from '../../src/domain/formats/csv'
import { expectOk, makeLayer, makeMarker, makeTeam, type Team } from './mapdata-fixture'

let team: Team
let layer: number
beforeEach(async () => {
  team = await makeTeam()
  layer = await makeLayer(team.t, team.owner, '水井', 1)
})
afterEach(() => team.t.close())

const exportOf = async (format: 'csv' | 'xlsx') => expectOk(await team.t.call('/api/marker/export', { layer_id: layer, format }, team.owner))

async function layerWithFormulas(): Promise<void> {
  const hostile = expectOk(await team.t.call('/api/layer/field/save', { layer_id: layer, name: '=HYPERLINK("x","点")', kind: 'text' }, team.owner))
  const plain = expectOk(await team.t.call('/api/layer/field/save', { layer_id: layer, name: '备注', kind: 'text' }, team.owner))
  await makeMarker(team.t, team.owner, layer, { name: '@SUM(A1)', fields: { [hostile.id]: '\t=cmd|calc', [plain.id]: '\r=1+1' } })
}

describe('a layer whose field names and values look like formulas', () => {
  // Values are stored trimmed, so a leading tab or carriage return reaches the export only from a file (the last test).
  it('exports a CSV whose header and cells are text', async () => {
    await layerWithFormulas()
    const csv: string = (await exportOf('csv')).content
    const [header, row] = csv.replace(/^\uFEFF/, '').split('\r\n')
    expect(header).toBe(`name,lng,lat,"'=HYPERLINK(""x"",""点"")",备注`)
    expect(row).toMatch(/^'@SUM\(A1\),[\d.]+,[\d.]+,'=cmd\|calc,'=1\+1$/)
  })

  it('exports an Excel sheet whose header and text cells are text, and which imports back as it was', async () => {
    await layerWithFormulas()
    const file = await exportOf('xlsx')
    const [header, row] = (await readSheet(Buffer.from(file.content, 'base64'))) as unknown[][]
    expect(header).toEqual(['name', 'lng', 'lat', `'=HYPERLINK("x","点")`, '备注'])
    expect([row[0], row[3], row[4]]).toEqual(["'@SUM(A1)", "'=cmd|calc", "'=1+1"])

    const copy = await makeLayer(team.t, team.owner, '副本', 1)
    expectOk(await team.t.call('/api/layer/field/save', { layer_id: copy, name: '=HYPERLINK("x","点")', kind: 'text' }, team.owner))
    expect(expectOk(await team.t.call('/api/marker/import', { layer_id: copy, format: 'xlsx', content: file.content, encoding: 'base64', file_name: '水井.xlsx' }, team.owner))).toMatchObject({
      imported: 1,
    })
    const [marker] = expectOk(await team.t.call('/api/marker/getlist', { layer_ids: [copy], pageindex: 1, pagesize: 10 }, team.owner)).list
    expect(marker.name).toBe('@SUM(A1)')
    expect(Object.values(marker.fields)).toEqual(['=cmd|calc'])
  })

  it('treats a leading tab or carriage return as a formula start', () => {
    expect(safeCell('\t=1+1')).toBe("'\t=1+1")
    expect(safeCell('\r@x')).toBe("'\r@x")
  })
})
