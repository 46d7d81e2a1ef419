/**
 * The op log names the bulk action an entry belongs to (the data list's 设置字段, 修改样式, 移动到图层,
 * 删除): each marker keeps its own entry, and the batch is restored as one from them.
 */
import { sql, type Kysely, type Migration } from 'kysely'

export function oplogBatches(): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema.alterTable('oplog').addColumn('batch_id', 'text').execute()
      await db.schema.createIndex('oplog_batch_index').on('oplog').columns(['group_id', 'batch_id']).where(sql.ref('batch_id'), 'is not', null).execute()
    },
    async down(db: Kysely<any>) {
      await db.schema.dropIndex('oplog_batch_index').execute()
      await db.schema.alterTable('oplog').dropColumn('batch_id').execute()
    },
  }
}
