/**
 * Migrations in code, applied in name order. Append-only: never edit or rename a shipped one; add
 * the next number instead.
 */
import { Migrator, type Migration, type MigrationResultSet } from 'kysely'
import type { Database, DialectName } from '../connection'
import { foundation } from './0001_foundation'
import { mapData } from './0002_map_data'
import { notesFields } from './0003_notes_fields'
import { userLocations } from './0004_user_locations'
import { teams } from './0005_teams'
import { shares } from './0006_shares'
import { vip } from './0007_vip'
import { serviceContact } from './0008_service_contact'
import { appReleases } from './0009_app_releases'
import { savedRoutes } from './0010_routes'
import { signs } from './0011_signs'
import { tasks } from './0012_tasks'
import { distribution } from './0013_distribution'
import { collaboratorLimit } from './0014_collaborator_limit'
import { lookupRateHits } from './0015_lookup_rate_hits'
import { discountHolds } from './0016_discount_holds'
import { revisions } from './0017_revisions'
import { syncChanges } from './0018_sync_changes'
import { clientIds } from './0019_client_ids'
import { storedFiles } from './0020_stored_files'
import { consentSessions } from './0021_consent_sessions'
import { deletedFieldValues } from './0022_deleted_field_values'
import { oplogBatches } from './0023_oplog_batches'

function migrations(dialect: DialectName): Record<string, Migration> {
  return {
    '0001_foundation': foundation(dialect),
    '0002_map_data': mapData(dialect),
    '0003_notes_fields': notesFields(dialect),
    '0004_user_locations': userLocations(dialect),
    '0005_teams': teams(dialect),
    '0006_shares': shares(dialect),
    '0007_vip': vip(dialect),
    '0008_service_contact': serviceContact(),
    '0009_app_releases': appReleases(dialect),
    '0010_routes': savedRoutes(dialect),
    '0011_signs': signs(dialect),
    '0012_tasks': tasks(dialect),
    '0013_distribution': distribution(dialect),
    '0014_collaborator_limit': collaboratorLimit(),
    '0015_lookup_rate_hits': lookupRateHits(dialect),
    '0016_discount_holds': discountHolds(),
    '0017_revisions': revisions(),
    '0018_sync_changes': syncChanges(),
    '0019_client_ids': clientIds(),
    '0020_stored_files': storedFiles(dialect),
    '0021_consent_sessions': consentSessions(),
    '0022_deleted_field_values': deletedFieldValues(),
    '0023_oplog_batches': oplogBatches(),
  }
}

export async function migrateToLatest(db: Database): Promise<MigrationResultSet> {
  const migrator = new Migrator({
    db: db.kysely,
    provider: { getMigrations: async () => migrations(db.dialect) },
    // Kysely looks for its own tables in every schema unless told which: with two test schemas
    // alive at once it would find the other one's lock table and skip creating its own.
    migrationTableSchema: db.schema,
  })
  const result = await migrator.migrateToLatest()
  if (result.error) throw result.error
  return result
}
