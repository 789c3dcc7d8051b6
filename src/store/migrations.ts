// Drizzle-kit's migrations, embedded at build time so a compiled binary needs
// no folder beside it. Add one import line per new migration; a test checks
// that every journal entry has its SQL here.
import { createHash } from 'node:crypto'
import journal from '../../db/migrations/meta/_journal.json'
import m0000 from '../../db/migrations/0000_init.sql' with { type: 'text' }
import m0001 from '../../db/migrations/0001_call_minutes_without_cum_indexes.sql' with { type: 'text' }
import m0002 from '../../db/migrations/0002_covering_call_indexes.sql' with { type: 'text' }
import m0003 from '../../db/migrations/0003_caller_totals_from_calls_mobile.sql' with { type: 'text' }
import m0004 from '../../db/migrations/0004_covering_product_filters.sql' with { type: 'text' }
import m0005 from '../../db/migrations/0005_callers_table.sql' with { type: 'text' }
import m0006 from '../../db/migrations/0006_change_feed.sql' with { type: 'text' }
import m0007 from '../../db/migrations/0007_calls_in_time_order.sql' with { type: 'text' }
import m0008 from '../../db/migrations/0008_metrics_by_day.sql' with { type: 'text' }
import m0009 from '../../db/migrations/0009_callers_seq_with_totals.sql' with { type: 'text' }
import m0010 from '../../db/migrations/0010_call_texts.sql' with { type: 'text' }
import m0011 from '../../db/migrations/0011_calls_mobile_by_time_bucket.sql' with { type: 'text' }
import m0012 from '../../db/migrations/0012_callers_changes_log.sql' with { type: 'text' }

const sqlByTag: Record<string, string> = {
  '0000_init': m0000,
  '0001_call_minutes_without_cum_indexes': m0001,
  '0002_covering_call_indexes': m0002,
  '0003_caller_totals_from_calls_mobile': m0003,
  '0004_covering_product_filters': m0004,
  '0005_callers_table': m0005,
  '0006_change_feed': m0006,
  '0007_calls_in_time_order': m0007,
  '0008_metrics_by_day': m0008,
  '0009_callers_seq_with_totals': m0009,
  '0010_call_texts': m0010,
  '0011_calls_mobile_by_time_bucket': m0011,
  '0012_callers_changes_log': m0012,
}

interface Migration {
  sql: string[]
  bps: boolean
  folderMillis: number
  hash: string
}

// The same shape drizzle's readMigrationFiles() returns from a folder.
export const migrations: Migration[] = journal.entries.map((entry) => {
  const text = sqlByTag[entry.tag]
  if (text === undefined) throw new Error(`migration ${entry.tag} is not embedded in src/store/migrations.ts`)
  return {
    sql: text.split('--> statement-breakpoint'),
    bps: entry.breakpoints,
    folderMillis: entry.when,
    hash: createHash('sha256').update(text).digest('hex'),
  }
})

export const newestMigrationMillis = Math.max(...migrations.map((m) => m.folderMillis))
