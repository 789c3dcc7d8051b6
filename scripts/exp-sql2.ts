import { openStore } from '../src/store/open'
const db = openStore('/tmp/listing-bench-sync-1.sqlite', { migrate: false, serving: true })
const lastDay = (db.$client.query('SELECT max(day) AS d FROM call_days').get() as { d: string }).d
const base = Date.parse(`${lastDay}T00:00:00Z`) / 1000 - 40 * 86400
const WHERE = `FROM calls c WHERE c.start >= ? AND c.start <= ? AND c.visible = 1 ORDER BY c.start, c.call_log_id LIMIT 50`
const N = 3000
const at = (i: number) => base + (i % 700) * 3600
function time(name: string, expr: string) {
  const s = db.$client.query(`SELECT ${expr} ${WHERE}`)
  const f = (i: number) => s.all(at(i), at(i) + 86400 * 30)
  for (let i = 0; i < 300; i++) f(i)
  const t0 = performance.now()
  for (let i = 0; i < N; i++) f(i)
  console.log(name.padEnd(20), (((performance.now() - t0) / N) * 1000).toFixed(1), 'µs')
}
console.log(db.$client.query('select sqlite_version() v').get())
time('website_id', 'c.website_id')
time('datetime', "datetime(c.start, 'unixepoch')")
time('3 datetime', "datetime(c.start, 'unixepoch'), datetime(c.start+1, 'unixepoch'), datetime(c.start+2, 'unixepoch')")
time('strftime', "strftime('%Y-%m-%d %H:%M:%S', c.start, 'unixepoch')")
time('json_quote x2', "json_quote(c.call_log_id), json_quote(c.caller_number)")
time('plain x2', "c.call_log_id, c.caller_number")
time('concat 20', "concat('a', c.call_log_id, 'b', c.caller_number, 'c', c.mobile, 'd', c.start, 'e', c.duration_seconds, 'f', c.did_number, 'g', c.event_type, 'h', c.substatus, 'i', c.recording_url, 'j', c.crm_lead_id)")
time('|| 20', "'a'|| c.call_log_id|| 'b'|| c.caller_number|| 'c'|| c.mobile|| 'd'|| c.start|| 'e'|| c.duration_seconds|| 'f'|| c.did_number|| 'g'|| c.event_type|| 'h'|| c.substatus|| 'i'|| coalesce(c.recording_url,'')|| 'j'|| coalesce(c.crm_lead_id,'')")
time('printf 10', "printf('a%sb%sc%sd%se%sf%sg%sh%si%sj%s', c.call_log_id, c.caller_number, c.mobile, c.start, c.duration_seconds, c.did_number, c.event_type, c.substatus, c.recording_url, c.crm_lead_id)")
time('json_object 14', "json_object('call_log_id', c.call_log_id, 'n', c.caller_number, 'm', c.mobile, 's', c.start, 'd', c.duration_seconds, 'di', c.did_number, 'e', c.event_type, 'su', c.substatus, 'r', c.recording_url, 'l', c.crm_lead_id, 'cs', c.crm_synced_at, 'ca', c.created_at, 'p', c.prev_calls_count)")
time('subq texts', "(SELECT text FROM call_texts WHERE id = c.did_number), (SELECT text FROM call_texts WHERE id = c.event_type)")
