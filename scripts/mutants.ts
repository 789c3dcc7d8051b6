// Planted bugs: small wrong changes to the source, each of which the test
// suite must catch. Each is planted alone in a copy of the tree (the working
// tree is never touched) and the named test files run against it; the bug is
// caught when they fail. A maintainer who moves code updates `find` here, and
// this run then shows the suite still guards what it guarded.
//   bun scripts/mutants.ts [--only 'name|name'] [--all]   (--all: the whole suite for each)
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { onlyNamed, parseFlags } from './bench/args'

interface Mutant {
  name: string
  file: string
  find: string
  replace: string
  tests: string[]
}

export const MUTANTS: Mutant[] = [
  { name: 'a served connection never reads the texts a sync adds', file: 'src/store/callTexts.ts', find: '.all(Math.min(id, all.length))) all[r.id] = r.text', replace: '.all(Number.MAX_SAFE_INTEGER)) all[r.id] = r.text', tests: ['test/callTexts.test.ts'] },
  { name: 'texts read again from the newest known id on, skipping the next', file: 'src/store/callTexts.ts', find: "'SELECT id, text FROM call_texts WHERE id >= ? ORDER BY id'", replace: "'SELECT id, text FROM call_texts WHERE id > ? ORDER BY id'", tests: ['test/callTexts.test.ts'] },
  { name: 'a connection that writes texts keeps them through a rollback', file: 'src/store/callTexts.ts', find: 'if (writers.has(client)) {', replace: 'if (false) {', tests: ['test/callTexts.test.ts'] },
  { name: "a full load drops a batch's last rows", file: 'src/store/fullLoad.ts', find: 'if (this.held > 0) this.statement(this.held)', replace: 'if (this.held > 1) this.statement(this.held - 1)', tests: ['test/sync.test.ts'] },
  { name: "a store's slot gives its last text's id to another text", file: 'src/store/callTexts.ts', find: 'if (this.byStore[slot] === text) return', replace: 'if (this.byStore[slot] !== null) return', tests: ['test/callTexts.test.ts'] },
  { name: 'the short list of texts gives the first one it holds', file: 'src/store/callTexts.ts', find: 'if (this.few[i] === text) return this.fewIds[i]', replace: 'if (this.few[i] !== undefined) return this.fewIds[0]', tests: ['test/callTexts.test.ts'] },
  { name: 'a full load leaves the callers counted out of order as counted', file: 'src/store/derive/callerPlaces.ts', find: 'if (this.disordered.size === 0) return', replace: 'return', tests: ['test/callerPlaces.test.ts'] },
  { name: "a call in its caller's last second is taken as in order", file: 'src/store/derive/callerPlaces.ts', find: '(n === 0 || seconds > table[at + 3])', replace: '(n === 0 || seconds >= table[at + 3])', tests: ['test/callerPlaces.test.ts'] },
  { name: 'a full load keeps the places it stopped counting', file: 'src/store/fullLoad.ts', find: "${counted ? 'place' : PLACE_IN_SEQUENCE_SQL}", replace: "${counted || true ? 'place' : PLACE_IN_SEQUENCE_SQL}", tests: ['test/callerPlaces.test.ts'] },
  { name: "the callers' table taken as full a quarter early", file: 'src/store/derive/callerPlaces.ts', find: 'if ((this.callers + 1) * 4 > this.limits.slots * 3) {', replace: 'if ((this.callers + 1) * 2 > this.limits.slots) {', tests: ['test/callerPlaces.test.ts'] },
  { name: 'callers told apart by their low 32 bits alone', file: 'src/store/derive/callerPlaces.ts', find: 'if (table[at] === low && table[at + 1] === high) return slot', replace: 'if (table[at] === low) return slot', tests: ['test/callerPlaces.test.ts'] },
  { name: 'a stored mobile in one pass keeps eleven digits', file: 'src/store/callCodec.ts', find: 'place < 1e10', replace: 'place < 1e11', tests: ['test/callCodec.test.ts'] },
  { name: 'a full load starts call_texts afresh', file: 'src/store/fullLoad.ts', find: "for (const t of ['calls', 'feed_deleted',", replace: "for (const t of ['call_texts', 'calls', 'feed_deleted',", tests: ['test/callTexts.test.ts'] },
  { name: 'a record shows its event type as its number', file: 'src/store/calls.ts', find: 'call_event_type: textOf(c.event_type),\n    substatus: substatusOf', replace: 'call_event_type: textOf(c.did_number),\n    substatus: substatusOf', tests: ['test/callTexts.test.ts', 'test/callHistory.test.ts'] },
  { name: 'a call-log row shows its number as its event type', file: 'src/store/calls.ts', find: '    did_number: textOf(c.did_number),', replace: '    did_number: textOf(c.event_type),', tests: ['test/callTexts.test.ts', 'test/step2.test.ts'] },
  { name: 'migration 0010 maps event types by the number', file: 'db/migrations/0010_call_texts.sql', find: '(SELECT t.id FROM call_texts t WHERE t.text = c.event_type),', replace: '(SELECT t.id FROM call_texts t WHERE t.text = c.did_number),', tests: ['test/callCodec.test.ts'] },
  { name: 'storelookup tag compared on its first 3 bytes', file: 'src/storelookup.ts', find: 'timingSafeEqual(iv, expected)', replace: 'timingSafeEqual(iv.subarray(0, 3), expected.subarray(0, 3))', tests: ['test/storelookup.test.ts'] },
  { name: 'storelookup not bound to the integration', file: 'src/storelookup.ts', find: 'const expected = syntheticIv(uint32(integrationId, "integrationId"), store)', replace: 'const expected = syntheticIv(uint32(1, "integrationId"), store)', tests: ['test/storelookup.test.ts'] },
  { name: 'master-stall watchdog removed', file: 'src/sync/master.ts', find: 'if (!socket) return', replace: 'return', tests: ['test/sync.test.ts'] },
  { name: '/health never reports stale data', file: 'src/http/routes/health.ts', find: '> deps.staleAfterSeconds * 1000', replace: '> Number.POSITIVE_INFINITY', tests: ['test/health.test.ts'] },
  { name: 'RateLimit-Reset fixed at 60', file: 'src/http/rateLimit.ts', find: "'RateLimit-Reset': String(next)", replace: "'RateLimit-Reset': '60'", tests: ['test/rateLimit.test.ts'] },
  { name: 'rolling verification window never advances', file: 'src/sync/verify.ts', find: "run.setMeta('verify:call_logs', String(whole || to >= Number(maxId ?? 0) ? 0 : to))", replace: "run.setMeta('verify:call_logs', '0')", tests: ['test/sync.test.ts'] },
  { name: 'listing-row count gap not re-read', file: 'src/sync/verify.ts', find: 'if (metrics !== local.metrics) {', replace: 'if (false) {', tests: ['test/sync.test.ts'] },
  { name: 'call minutes rounded by truncation', file: 'src/store/fieldRules.ts', find: 'Math.floor((seconds * 100 + 30) / 60) / 100', replace: 'Math.floor((seconds * 100) / 60) / 100', tests: ['test/callHistory.test.ts', 'test/step2.test.ts'] },
  { name: 'HEAD answered with a body', file: 'src/http/app.ts', find: "if (request.method === 'HEAD') return new Response(null,", replace: "if (request.method === 'HEAD') return failure(405, Message.onlyPost, headers) ?? new Response(null,", tests: ['test/protocol.test.ts'] },
  { name: 'JSON nesting limit off by one', file: 'src/http/context.ts', find: 'if (++depth > limit) return true', replace: 'if (++depth > limit + 1) return true', tests: ['test/protocol.test.ts'] },
  { name: "compression ignores q=0", file: 'src/http/compression.ts', find: "const offered = (coding: Encoding) => (q[coding] ?? q['*'] ?? 0) > 0", replace: "const offered = (coding: Encoding) => coding in q || '*' in q", tests: ['test/compression.test.ts'] },
  { name: 'serving workers count rate limits apart', file: 'src/http/workers.ts', find: 'const data: WorkerData = { config, secret, port, rateLimitMemory }', replace: 'const data: WorkerData = { config, secret, port, rateLimitMemory: undefined as never }', tests: ['test/workers.test.ts'] },
  { name: 'store figures summed over the workers', file: 'src/http/prometheus.ts', find: "const aggregator = 'first' as const", replace: "const aggregator = 'sum' as const", tests: ['test/workers.test.ts'] },
  { name: 'callers in memory taken from one worker, not summed', file: 'src/http/prometheus.ts', find: "aggregator: 'sum',\n      help: 'Serving workers that hold", replace: "aggregator: 'first',\n      help: 'Serving workers that hold", tests: ['test/workers.test.ts'] },
  { name: 'a dead worker is not replaced', file: 'src/http/workers.ts', find: "      setTimeout(() => {\n        if (stopping) return", replace: "      setTimeout(() => {\n        return", tests: ['test/workers.test.ts'] },
  { name: 'unexpected errors logged every time', file: 'src/http/unexpected.ts', find: 'if (seen && now - seen.at < QUIET_MS) return void seen.since++', replace: 'if (false) return', tests: ['test/protocol.test.ts'] },
  { name: 'caller totals not kept by an incremental run', file: 'src/store/derive/callers.ts', find: '    setTotal(mobile, n)', replace: '    void n', tests: ['test/sync.test.ts'] },
  { name: 'a dealer page\'s search bracketed as if a dealer had two stores', file: 'src/store/calls.ts', find: 'firstAlone(Math.floor(n / websiteIds.length))', replace: 'firstAlone(Math.floor(n / 2))', tests: ['test/paging.test.ts'] },
  { name: 'a dealer page\'s search ends a day early', file: 'src/store/calls.ts', find: 'let hi = firstAlone(n)\n', replace: 'let hi = firstAlone(n) - 1\n', tests: ['test/paging.test.ts'] },
  { name: 'a dealer\'s later page starts at the range\'s start', file: 'src/store/calls.ts', find: '.all(...websiteIds, first * 86_400,', replace: '.all(...websiteIds, days.from * 86_400,', tests: ['test/paging.test.ts'] },
  { name: 'a dealer\'s page 1 starts a day late', file: 'src/store/calls.ts', find: 'offset === 0 ? days.from :', replace: 'offset === 0 ? days.from + 1 :', tests: ['test/paging.test.ts'] },
  { name: 'a day slot answers for the first day it held', file: 'src/store/callCodec.ts', find: 'if (slotDays[slot] !== day) {', replace: 'if (Number.isNaN(slotDays[slot])) {', tests: ['test/callCodec.test.ts'] },
  { name: 'a day slot keeps its first day\'s text', file: 'src/store/callCodec.ts', find: 'slotTexts[slot] = civilText(day)', replace: "slotTexts[slot] ||= civilText(day)", tests: ['test/callCodec.test.ts'] },
  { name: 'a store\'s face filed one id along', file: 'src/store/directory.ts', find: 'faces[id] = store.face', replace: 'faces[id + 1] = store.face', tests: ['test/store.test.ts', 'test/callHistory.test.ts'] },
  { name: 'a dealer page merged by time alone', file: 'src/store/calls.ts', find: 'ORDER BY start, call_log_id LIMIT ${int(n + 3)}', replace: 'ORDER BY start LIMIT ${int(n + 3)}', tests: ['test/paging.test.ts'] },
  { name: 'a dealer page of many stores sorted by time alone', file: 'src/store/calls.ts', find: 'json_each(?)) AND c.start >= ${int()} AND c.start <= ${int()} ${where}\n      ORDER BY c.start, c.call_log_id', replace: 'json_each(?)) AND c.start >= ${int()} AND c.start <= ${int()} ${where}\n      ORDER BY c.start', tests: ['test/paging.test.ts'] },
  { name: 'a dealer page of three to eight stores sorted, not merged', file: 'src/store/calls.ts', find: 'const MERGED_STORES = 8', replace: 'const MERGED_STORES = 2', tests: ['test/paging.test.ts'] },
  { name: 'the first scheduled run does not wait for the workers', file: 'src/sync/schedule.ts', find: '  void after.then(() => {', replace: '  void Promise.resolve().then(() => {', tests: ['test/sync.test.ts'] },
  { name: 'serve never hears that its workers are ready', file: 'src/http/workers.ts', find: 'if (readySlots.add(index).size === configured) allReady()', replace: 'if (readySlots.add(index).size === configured + 1) allReady()', tests: ['test/workers.test.ts'] },
  { name: 'the suite\'s MariaDB watcher killed with the run, its server left behind', file: 'test/setup.ts', find: '  if (options?.detached) return child', replace: '  void options', tests: ['test/harness.test.ts'] },
  { name: 'a store entry without figures shows has_data true', file: 'src/http/storeEntries.ts', find: 'days > 0 ? WITH_DATA : WITHOUT_DATA', replace: 'days >= 0 ? WITH_DATA : WITHOUT_DATA', tests: ['test/lookups.test.ts'] },
  { name: "the employee lookup's grand totals not summed before its head is written", file: 'src/http/storeEntries.ts', find: '  if (grand) for (const f of figures) addTotals(grand, f.totals)\n', replace: '', tests: ['test/lookups.test.ts'] },
  { name: 'the answer buffer grown without what was written', file: 'src/http/jsonBytes.ts', find: '    grown.set(this.buf.subarray(0, this.at))\n', replace: '', tests: ['test/jsonBytes.test.ts'] },
  { name: 'an int32 written a digit short', file: 'src/http/jsonBytes.ts', find: '    } while (n > 0)\n  }', replace: '    } while (n > 9)\n  }', tests: ['test/jsonBytes.test.ts', 'test/lookups.test.ts'] },
  { name: 'a large integer written through the int32 digits', file: 'src/http/jsonBytes.ts', find: 'while (n > 0x7fff_ffff) {', replace: 'while (n > 0xff_ffff_ffff) {', tests: ['test/jsonBytes.test.ts'] },
  { name: 'rendered rows after the second not separated', file: 'src/http/answer.ts', find: '        if (i > 0) out.byte(COMMA)', replace: '        if (i > 1) out.byte(COMMA)', tests: ['test/lookups.test.ts', 'test/products.test.ts'] },
  { name: 'a feed upsert rendered without its change field', file: 'src/store/feed.ts', find: "recordsOf(db, 'upsert'", replace: 'recordsOf(db, undefined', tests: ['test/changesApi.test.ts'] },
  { name: 'a range\'s listing totals start at its first day', file: 'src/store/listingFigures.ts', find: 'const b = first > l.day ? l : cumsThrough(held, id, first - 1, seek)', replace: 'const b = NONE', tests: ['test/lookups.test.ts'] },
  { name: 'a store with no listing row on the day a range starts after or ends counts from nothing', file: 'src/store/listingFigures.ts', find: '.get(id, day) ?? db.$client.query<Cums, [number, number]>(UP_TO).get(id, day) ?? NONE', replace: '.get(id, day) ?? NONE', tests: ['test/lookups.test.ts'] },
  { name: 'the day-major look-up before a range reads its first day', file: 'src/store/listingFigures.ts', find: 'cumsThrough(held, id, first - 1, seek)', replace: 'cumsThrough(held, id, first, seek)', tests: ['test/lookups.test.ts'] },
  { name: 'a range that ends before its store\'s last listing row ends the day before', file: 'src/store/listingFigures.ts', find: 'cumsThrough(held, id, last, seek)', replace: 'cumsThrough(held, id, last - 1, seek)', tests: ['test/lookups.test.ts'] },
  { name: 'the day-major look-up takes any store\'s row of the day', file: 'src/store/listingFigures.ts', find: '= +${DAY} AND website_id = ${STORE}`', replace: '= +${DAY} AND website_id >= 0 AND ${STORE} > 0`', tests: ['test/lookups.test.ts'] },
  { name: 'a range starting on a store\'s last day misses that day', file: 'src/store/listingFigures.ts', find: 'const b = first > l.day ? l', replace: 'const b = first >= l.day ? l', tests: ['test/lookups.test.ts'] },
  { name: 'a store\'s latest listing row kept across syncs', file: 'src/store/listingFigures.ts', find: 'const latestRows = perVersion((_: Store) => new Map<number, Latest>())', replace: 'const kept = new Map<number, Latest>()\nconst latestRows = (_: Store) => kept', tests: ['test/lookups.test.ts'] },
  { name: 'in-memory directory never rebuilt after a sync', file: 'src/store/snapshot.ts', find: '  return (trackedOf(db).version = `${dv}.${own}`)', replace: "  return (trackedOf(db).version = '1')", tests: ['test/keys.test.ts', 'test/sync.test.ts'] },
  { name: 'a store\'s changed face does not move its calls in the feed', file: 'src/store/changes.ts', find: 'moveCallsOfChangedStores(this.client, this.facesBefore, this.facesNow, this.seq)', replace: 'void 0', tests: ['test/changes.test.ts'] },
  { name: 'another replica\'s cursor resumed at its own position', file: 'src/http/routes/changes.ts', find: 'if (cursor.origin === origin) return { after: cursor.after }', replace: 'return { after: cursor.after }', tests: ['test/changes.test.ts'] },
  { name: 'a replica behind the cursor answers with older states', file: 'src/http/routes/changes.ts', find: '  if (cursor.head > head) return null\n', replace: '', tests: ['test/changes.test.ts'] },
  { name: 'a renumbered call keeps its feed position', file: 'src/store/derive/callers.ts', find: '?2, feed_seq) WHERE', replace: 'feed_seq, feed_seq) WHERE', tests: ['test/changes.test.ts'] },
  { name: 'every re-read change moves a call in the feed', file: 'src/store/changes.ts', find: 'shownDiffers(old, values) && this.shown(websiteId) ? 1 : 0', replace: 'this.shown(websiteId) ? 1 : 0', tests: ['test/changes.test.ts'] },
  { name: 'a call the master lost leaves no delete', file: 'src/store/changes.ts', find: 'markGone(this.client, id, this.shown(old[WEBSITE] as number) ? this.seq : (old[STORED_CALL_COLUMNS.length] as number))', replace: 'void 0', tests: ['test/changes.test.ts'] },
  { name: 'feed cursor tag compared on its first 2 bytes', file: 'src/changesCursor.ts', find: 'timingSafeEqual(bytes.subarray(bytes.length - TAG_BYTES), tagOf(body))', replace: 'timingSafeEqual(bytes.subarray(bytes.length - TAG_BYTES, bytes.length - TAG_BYTES + 2), tagOf(body).subarray(0, 2))', tests: ['test/changesApi.test.ts'] },
  { name: 'callers renumbered from the new call only', file: 'src/store/derive/callers.ts', find: 'let n = place.before ?? placeOf(mobile, place.start, place.callLogId).before', replace: 'let n = 0', tests: ['test/sync.test.ts'] },
  { name: 'a call the master no longer has still counted in its caller\'s total while the run places others', file: 'src/store/changes.ts', find: '      this.count(old, -1)\n      markGone(', replace: '      markGone(', tests: ['test/callerPlaces.test.ts'] },
  { name: "calls_mobile's text bucket left out of a caller's buckets", file: 'src/store/derive/callers.ts', find: 'if (text.get()!.text) buckets.push(TEXT_CALL_BUCKET)', replace: 'void text', tests: ['test/callerPlaces.test.ts'] },
  { name: "a full load's minutes count Answered as Missed", file: 'src/store/derive/callMinutes.ts', find: '[SUBSTATUS_CODES.Answered]: 0,', replace: '[SUBSTATUS_CODES.Answered]: 1,', tests: ['test/paging.test.ts', 'test/store.test.ts'] },
  { name: 'minute running totals not shifted', file: 'src/store/derive/callMinutes.ts', find: 'if (!delta.a && !delta.m && !delta.o) continue', replace: 'continue', tests: ['test/sync.test.ts'] },
  { name: 'no look-back behind the watermark', file: 'src/sync/run.ts', find: 'export const LOOK_BACK_SECONDS = 300', replace: 'export const LOOK_BACK_SECONDS = 0', tests: ['test/sync.test.ts'] },
  { name: 'small tables not emptied before a run', file: 'src/store/smallTables.ts', find: 'client.run(`DELETE FROM ${table}`)', replace: 'client.run(`DELETE FROM ${table} WHERE 0`)', tests: ['test/sync.test.ts'] },
  { name: 'a small table keeps the rows the master no longer has', file: 'src/store/smallTables.ts', find: 'for (const old of stored.values()) remove.push(keyAt.map((i) => old[i]))', replace: 'void stored', tests: ['test/smallTables.test.ts'] },
  { name: "a small table's changed row kept as stored", file: 'src/store/smallTables.ts', find: 'if (same(row, old)) continue', replace: 'continue', tests: ['test/smallTables.test.ts', 'test/sync.test.ts'] },
  { name: 'a changed row of a small table compared on its key alone', file: 'src/store/smallTables.ts', find: 'if ((row[columns[i]] ?? null) !== old[i]) return false', replace: 'if (keyAt.includes(i) && (row[columns[i]] ?? null) !== old[i]) return false', tests: ['test/smallTables.test.ts'] },
  { name: "the stores' derivation writes every store", file: 'src/store/derive/stores.ts', find: 'WHERE (visible, dealership_name) IS NOT', replace: 'WHERE 1 OR (visible, dealership_name) IS NOT', tests: ['test/smallTables.test.ts'] },
  { name: "products' images derived only where they stay the same", file: 'src/store/derive/products.ts', find: 'WHERE images IS NOT ${IMAGES}', replace: 'WHERE images IS ${IMAGES}', tests: ['test/smallTables.test.ts', 'test/sync.test.ts'] },
  { name: "products' ranks that change taken without letting them go first", file: 'src/store/derive/products.ts', find: 'AND products.active_seq IS NOT NULL`', replace: 'AND 0`', tests: ['test/smallTables.test.ts'] },
  { name: 'listing totals not restarted at the next store', file: 'src/store/derive/metricTotals.ts', find: 'if (row.website_id !== this.websiteId) {', replace: 'if (this.websiteId === -1) {', tests: ['test/lookups.test.ts', 'test/paging.test.ts'] },
  { name: 'the call log summary counts Offline as connected', file: 'src/store/callClasses.ts', find: "const connected = count('answered')", replace: "const connected = count('answered') + count('offline')", tests: ['test/step2.test.ts', 'test/paging.test.ts'] },
  { name: 'a substatus filter selecting the wrong class', file: 'src/store/callClasses.ts', find: "missed: 'missedOffline' }", replace: "missed: 'missed' }", tests: ['test/callHistory.test.ts', 'test/paging.test.ts'] },
  { name: 'a wrong header key overruled by a good body key', file: 'src/http/auth.ts', find: "if (key === null || key === '') {", replace: "if (key === null || key === '' || !integrationByKeyHash(db, sha256Hex(key))) {", tests: ['test/protocol.test.ts'] },
  { name: 'product filters trimmed', file: 'src/store/products.ts', find: 'const bitmap = bitmaps[f].get(filters[f]!)', replace: 'const bitmap = bitmaps[f].get(filters[f]!.trim())', tests: ['test/products.test.ts'] },
  { name: "several product filters drop each word's last product", file: 'src/store/products.ts', find: 'for (let bits = all[w]; bits !== 0;', replace: 'for (let bits = all[w] & 0x7fffffff; bits !== 0;', tests: ['test/products.test.ts'] },
  { name: 'a kept catalogue or directory outlives a change to its tables', file: 'src/store/snapshot.ts', find: '      if (list[i].content !== content) continue', replace: '      if (false) continue', tests: ['test/store.test.ts', 'test/products.test.ts'] },
  { name: 'keys --demo leaves the integrations digest in place', file: 'src/store/integrations.ts', find: "const forgetDigest = () => db.prepare('DELETE FROM meta WHERE key = ?').run(digestKey('integrations'))", replace: 'const forgetDigest = () => {}', tests: ['test/store.test.ts'] },
  { name: 'sync keeps no digest of the small tables', file: 'src/sync/run.ts', find: 'run.setMeta(digestKey(into), written)', replace: 'void written', tests: ['test/sync.test.ts'] },
  { name: 'a new call inserted unnumbered, for renumbering to rewrite', file: 'src/store/changes.ts', find: 'insertAt.run(...values, feedSeq, place.before)', replace: 'insertAt.run(...values, feedSeq, 0)', tests: ['test/callerCounts.test.ts'] },
  { name: "an earlier touched place takes the count of a later inserted call", file: 'src/store/changes.ts', find: '(comparePlaces(place, earliest) < 0 ? place : earliest)', replace: '(comparePlaces(place, earliest) < 0 ? { ...place, before: place.before ?? earliest.before } : earliest)', tests: ['test/callerCounts.test.ts'] },
  { name: 'a new call taken for its caller\'s last without asking', file: 'src/store/derive/callers.ts', find: 'last: after === 0', replace: 'last: true', tests: ['test/callerCounts.test.ts'] },
  { name: 'a caller touched twice still taken as ending at its first touch', file: 'src/store/changes.ts', find: 'earliest), last: false })', replace: 'earliest) })', tests: ['test/callerCounts.test.ts'] },
  { name: "a caller's first call counted as if a call came before it", file: 'src/store/derive/callers.ts', find: '(total.get(mobile)?.total ?? 0)', replace: '(total.get(mobile)?.total ?? 1)', tests: ['test/callerCounts.test.ts', 'test/sync.test.ts'] },
  { name: "a caller base's bucket begins after its first caller", file: 'src/store/callerTotals.ts', find: 'while (this.bucket <= bucket) starts[this.bucket++] = place', replace: 'while (this.bucket < bucket) starts[this.bucket++] = place', tests: ['test/callerTotals.test.ts', 'test/callerCounts.test.ts'] },
  { name: 'a stop during a scheduled sync not passed to it', file: 'src/sync/schedule.ts', find: "run?.kill('SIGTERM')", replace: 'void run', tests: ['test/workers.test.ts'] },
  // issue 12's layout: calls in time order, stored compact, caller totals in memory, snapshots per turn
  { name: 'a stored start read back an hour late', file: 'src/store/callCodec.ts', find: 'TWO_DIGITS[Math.floor(r / 3600)]', replace: 'TWO_DIGITS[(Math.floor(r / 3600) + 1) % 24]', tests: ['test/callCodec.test.ts', 'test/callHistory.test.ts'] },
  { name: 'created_at stored as its own time, not after the start', file: 'src/store/callCodec.ts', find: 'return seconds === null ? text : seconds - (start as number)', replace: 'return seconds === null ? text : seconds', tests: ['test/callCodec.test.ts', 'test/sync.test.ts'] },
  { name: "a mobile's leading zeros lost", file: 'src/store/callCodec.ts', find: '  return place + value\n', replace: '  return Number(`1${value}`)\n', tests: ['test/callCodec.test.ts', 'test/callerCounts.test.ts'] },
  { name: 'the in-memory caller totals miss the changes since their base', file: 'src/store/callerTotals.ts', find: '    if (total !== undefined) return total', replace: '    if (false) return total', tests: ['test/callerTotals.test.ts'] },
  { name: "a store that turned invisible keeps its calls in call history", file: 'src/store/changes.ts', find: '    markCallsVisible(this.client, turned)', replace: '    void turned', tests: ['test/sync.test.ts'] },
  { name: "a serving connection's snapshot never let go", file: 'src/store/snapshot.ts', find: "    if (db.$client.inTransaction) db.$client.query('COMMIT').run()", replace: '    void db', tests: ['test/store.test.ts'] },
  { name: "the watcher's copy thrown away, so a request builds it again", file: 'src/store/snapshot.ts', find: 'return buildOf(build(at), (value) => keep(db, content, value))', replace: 'return buildOf(build(at), () => void content)', tests: ['test/store.test.ts'] },
  { name: "the callers' changes read ahead by the watcher left unused", file: 'src/store/callerTotals.ts', find: 'if (ahead && ahead.base === ready && ahead.head === feedState(db).head) changed = ahead.changed', replace: 'if (false) changed = ahead!.changed', tests: ['test/callerTotals.test.ts'] },
  { name: "a caller total's search stops short of its bucket's last caller", file: 'src/store/callerTotals.ts', find: '    let hi = starts[bucket + 1] - 1', replace: '    let hi = starts[bucket + 1] - 2', tests: ['test/callerTotals.test.ts'] },
  { name: 'an interned value taken for another', file: 'src/store/interned.ts', find: 'const first = seen.get(value)', replace: 'const first = seen.values().next().value', tests: ['test/products.test.ts', 'test/lookups.test.ts', 'test/callHistory.test.ts'] },
  { name: "a caller's total of 16 bits or more read from its word alone", file: 'src/store/callerTotals.ts', find: 'return total === LARGE ? large.get(mobile)! : total', replace: 'return total', tests: ['test/callerTotals.test.ts'] },
  { name: "a caller base's buckets wider than an offset's 16 bits", file: 'src/store/callerTotals.ts', find: ' && 2 ** shift < WIDEST) shift++', replace: ') shift++', tests: ['test/callerTotals.test.ts'] },
  { name: "a base taken in with the log's changes though the log lacks some since it", file: 'src/store/callerTotals.ts', find: ' || state.base.seq < logFrom) return null', replace: ') return null', tests: ['test/callerTotals.test.ts'] },
  { name: "the callers' log let go of a week's runs without saying so", file: 'src/store/derive/callers.ts', find: '.run(until).changes > 0) setChangesFrom(client, until)', replace: '.run(until).changes > 0) void until', tests: ['test/callerTotals.test.ts'] },
  { name: "a full load keeps the callers' log of the runs before it", file: 'src/store/fullLoad.ts', find: '    restartCallerChanges(this.client, this.seq)', replace: '    void restartCallerChanges', tests: ['test/callerTotals.test.ts'] },
  { name: "a caller's changed total not logged", file: 'src/store/derive/callers.ts', find: '.changes > 0) logTotal.run(seq, mobile, total)', replace: '.changes > 0) void logTotal', tests: ['test/callerTotals.test.ts'] },
  { name: "a run's changed callers read ahead without the previous run's", file: 'src/store/callerTotals.ts', find: 'new Map(from?.changed)', replace: 'new Map()', tests: ['test/callerTotals.test.ts'] },
  { name: "a run's changed callers read ahead into the previous run's table itself", file: 'src/store/callerTotals.ts', find: 'new Map(from?.changed)', replace: 'from?.changed ?? new Map()', tests: ['test/callerTotals.test.ts'] },
  { name: "a crowded bucket's halving skips a caller", file: 'src/store/callerTotals.ts', find: '      if (k < offset) lo = i + 1', replace: '      if (k < offset) lo = i + 2', tests: ['test/callerTotals.test.ts'] },
  { name: 'an old copy of the directory kept after the requests moved on', file: 'src/store/snapshot.ts', find: '      if (current && i > 0) list.splice(0, i)', replace: '      if (current && i > 9) list.splice(0, i)', tests: ['test/store.test.ts'] },
  { name: "a sync run's WAL left to grow", file: 'src/store/syncRun.ts', find: "      this.client.query('PRAGMA wal_checkpoint(TRUNCATE)').get()", replace: '      void 0', tests: ['test/store.test.ts'] },
  { name: 'a serving snapshot held for good', file: 'src/store/snapshot.ts', find: '  else if (!t.open || performance.now() - s.openedAt > RENEW_MS) renew(db, t, s)', replace: '  else if (!t.open) renew(db, t, s)', tests: ['test/store.test.ts'] },
  { name: 'an idle serving connection lets its snapshot go', file: 'src/store/snapshot.ts', find: '  if (moved) letGo(db, t)', replace: '  if (moved || performance.now() - s.openedAt > 50) letGo(db, t)', tests: ['test/store.test.ts'] },
  { name: 'a new copy built in one piece, requests waiting behind it', file: 'src/store/snapshot.ts', find: 'while (builds.length > 0 && performance.now() < until)', replace: 'while (builds.length > 0)', tests: ['test/store.test.ts'] },
  { name: 'a remembered key outlives the sync that revoked it', file: 'src/http/auth.ts', find: 'const knownKeys = perVersion((): Map<string, Integration> => new Map())', replace: 'const remembered = new Map<string, Integration>()\nconst knownKeys = (_: Store) => remembered', tests: ['test/protocol.test.ts'] },
  { name: "serve never runs itself again with its heap growth", file: 'src/cli/serve.ts', find: '    if (tuned) runAgain(process.argv.slice(2), tuned)', replace: '    void tuned', tests: ['test/heapGrowth.test.ts'] },
  { name: "an operator's heap growth overridden", file: 'src/heapGrowth.ts', find: '  if (env[HEAP_GROWTH_VARIABLE] !== undefined) return null', replace: '  if (env[HEAP_GROWTH_BY_SERVE] !== undefined) return null', tests: ['test/heapGrowth.test.ts'] },
  { name: "a scheduled sync inherits serve's heap growth", file: 'src/config.ts', find: '  return { ...withoutServeHeapGrowth(env), ...settings }', replace: '  return { ...env, ...settings }', tests: ['test/heapGrowth.test.ts'] },
  { name: "a scheduled sync at serve's CPU priority", file: 'src/sync/schedule.ts', find: 'getPriority() + RUN_NICE', replace: 'getPriority()', tests: ['test/workers.test.ts'] },
  { name: 'a global page starts past its first minute', file: 'src/store/passing.ts', find: '      lo = mid + 1\n', replace: '      lo = mid + 2\n', tests: ['test/passing.test.ts', 'test/paging.test.ts'] },
  { name: "a page start's search never halves", file: 'src/store/passing.ts', find: '      halve = hi - lo > checked / 2', replace: '      halve = false', tests: ['test/passing.test.ts'] },
  { name: 'the Illinois rule left out', file: 'src/store/passing.ts', find: '      if (side === 1) spare /= 2', replace: '      void side', tests: ['test/passing.test.ts'] },
  { name: "a call's mobile read from a caller number ending in a ':'", file: 'src/store/callCodec.ts', find: '    if (c < 48 || c > 57) return mobileDigits(key)', replace: '    if (c < 48 || c > 58) return mobileDigits(key)', tests: ['test/callCodec.test.ts'] },
  { name: 'a first load always through the WAL', file: 'src/store/syncRun.ts', find: 'this.direct = firstLoad && leaveWal(this.client)', replace: 'this.direct = false && leaveWal(this.client)', tests: ['test/sync.test.ts'] },
  { name: 'a first load leaves the store out of WAL mode', file: 'src/store/syncRun.ts', find: "    client.run('PRAGMA journal_mode = WAL')\n  } catch {\n    return // busy", replace: "    void client\n  } catch {\n    return // busy", tests: ['test/sync.test.ts'] },
  { name: 'an open fails while a first load holds the store', file: 'src/store/open.ts', find: "      if (!told) waiting()\n", replace: "      throw error\n", tests: ['test/sync.test.ts'] },
  { name: 'an open waiting for a first load spins', file: 'src/store/open.ts', find: '      Bun.sleepSync(WAIT_STEP_MS)', replace: '      void WAIT_STEP_MS', tests: ['test/sync.test.ts'] },
  { name: 'an open waits for ever on any lock', file: 'src/store/open.ts', find: " !== 'SQLITE_BUSY' || !loadingDirectly(path)) throw error", replace: " !== 'SQLITE_BUSY' || !loadingDirectly) throw error", tests: ['test/sync.test.ts'] },
  { name: 'a first load writes its journal unsynced', file: 'src/store/syncRun.ts', find: "    client.run('PRAGMA synchronous = FULL')", replace: '    void 0', tests: ['test/sync.test.ts'] },
  { name: 'a failed first load leaves the store out of WAL mode', file: 'src/store/syncRun.ts', find: "    if (this.client.inTransaction) this.client.run('ROLLBACK')\n    if (this.direct) backToWal(this.client)", replace: "    if (this.client.inTransaction) this.client.run('ROLLBACK')", tests: ['test/sync.test.ts'] },
  { name: 'a stop after the commit records the run as failed', file: 'src/sync/run.ts', find: "    if (name === 'committed') committed = true", replace: '    void committed', tests: ['test/sync.test.ts'] },
  { name: "drizzle's migration statements left unfinalized", file: 'src/store/open.ts', find: '    for (const statement of prepared) statement.finalize()', replace: '    void prepared', tests: ['test/store.test.ts'] },
  { name: "bun:sqlite's statement cache left at its 20", file: 'src/store/open.ts', find: 'Database.MAX_QUERY_CACHE_SIZE = Math.max(Database.MAX_QUERY_CACHE_SIZE, QUERY_CACHE_SIZE)', replace: 'void QUERY_CACHE_SIZE', tests: ['test/statementCache.test.ts'] },
  { name: 'a small table fingerprinted by its row count alone', file: 'src/sync/masterTables.ts', find: "AS a, ${sum('REVERSE(t)')} AS b", replace: "AS a0, ${sum('REVERSE(t)')} AS b0, 0 AS a, 0 AS b", tests: ['test/sync.test.ts'] },
  { name: 'a small table fingerprinted with NULL as the text NULL', file: 'src/sync/masterTables.ts', find: '.map((c) => `QUOTE(${c})`)', replace: ".map((c) => `IFNULL(${c}, 'NULL')`)", tests: ['test/sync.test.ts'] },
  { name: 'products not derived again when only their images changed', file: 'src/sync/run.ts', find: "products: rewritten.has('products') || rewritten.has('product_images'),", replace: "products: rewritten.has('products'),", tests: ['test/sync.test.ts'] },
  { name: 'stores not derived again when only their dealers changed', file: 'src/sync/run.ts', find: "stores: rewritten.has('stores') || rewritten.has('dealers'),", replace: "stores: rewritten.has('stores'),", tests: ['test/sync.test.ts'] },
  { name: 'a small table skipped once it has any fingerprint', file: 'src/sync/run.ts', find: '      if (!full && run.meta(fingerprintKey(into)) === `${fingerprints[name]}/${run.meta(digestKey(into))}`) {', replace: '      if (!full && run.meta(fingerprintKey(into)) !== null) {', tests: ['test/sync.test.ts'] },
  { name: 'a small table skipped though a release before fingerprints wrote it since', file: 'src/sync/run.ts', find: '=== `${fingerprints[name]}/${run.meta(digestKey(into))}`) {', replace: "?.startsWith(fingerprints[name]) === true) {", tests: ['test/sync.test.ts'] },
  { name: "verification takes the counts asked ahead though they differ from the store's", file: 'src/sync/verify.ts', find: "if (early && early.calls === local.calls && early.metrics === local.metrics) return", replace: 'if (early) return', tests: ['test/sync.test.ts'] },
  { name: 'counts asked ahead include the calls past the run\'s newest', file: 'src/sync/verify.ts', find: '(SELECT count(*) FROM call_logs) - (SELECT count(*) FROM call_logs WHERE id > ?)', replace: '(SELECT count(*) FROM call_logs) - 0 * ?', tests: ['test/sync.test.ts'] },
  { name: 'counts asked ahead never taken', file: 'src/sync/verify.ts', find: 'if (early && early.calls === local.calls', replace: 'if (false && early && early.calls === local.calls', tests: ['test/sync.test.ts'] },
  { name: "the run's stall clock runs while it waits for the counts asked ahead", file: 'src/sync/verify.ts', find: '  pauseStallClock(master)\n', replace: '', tests: ['test/sync.test.ts'] },
  { name: 'counts asked ahead waited for without end', file: 'src/sync/verify.ts', find: 'await within(ahead.counts, waitMs)', replace: 'await ahead.counts', tests: ['test/sync.test.ts'] },
  { name: 'a stop leaves the run waiting for the counts asked ahead', file: 'src/sync/run.ts', find: '      ahead?.stop()\n    }, { once: true })', replace: '    }, { once: true })', tests: ['test/sync.test.ts'] },
]

/** What is caught: true when the tests fail with the mutant planted. */
function plant(mutant: Mutant, all: boolean): { caught: boolean; failed: string[] } {
  const dir = mkdtempSync(join(tmpdir(), 'listing-mutant-'))
  try {
    for (const part of ['src', 'test', 'db', 'scripts', 'client', 'package.json', 'tsconfig.json', 'bunfig.toml']) cpSync(part, join(dir, part), { recursive: true })
    symlinkSync(join(process.cwd(), 'node_modules'), join(dir, 'node_modules'))
    const path = join(dir, mutant.file)
    const source = readFileSync(path, 'utf8')
    if (!source.includes(mutant.find)) throw new Error(`${mutant.name}: "${mutant.find}" is no longer in ${mutant.file}`)
    writeFileSync(path, source.replace(mutant.find, mutant.replace))
    // the run's temporary folders (its MariaDB server's too) under the copy: whatever a planted bug
    // leaves running there is stopped with the copy
    const tmp = join(dir, 't')
    mkdirSync(tmp)
    const run = Bun.spawnSync([process.execPath, 'test', ...(all ? [] : mutant.tests)], { cwd: dir, stdout: 'pipe', stderr: 'pipe', env: { ...process.env, TMPDIR: tmp } })
    Bun.spawnSync(['pkill', '-9', '-f', tmp])
    const output = run.stdout.toString() + run.stderr.toString()
    const failed = [...new Set([...output.matchAll(/^\(fail\) (.+?)(?: \[[\d.]+m?s\])?$/gm)].map((m) => m[1]))]
    return { caught: run.exitCode !== 0, failed }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

if (import.meta.main) {
  const { flags } = parseFlags(process.argv.slice(2))
  const named = onlyNamed(flags)
  const chosen = MUTANTS.filter((m) => named(m.name))
  console.log('| Planted bug | Where | Caught by |\n|---|---|---|')
  let missed = 0
  for (const mutant of chosen) {
    const { caught, failed } = plant(mutant, flags.has('--all'))
    if (!caught) missed++
    console.log(`| ${mutant.name} | \`${mutant.file}\` | ${caught ? failed.slice(0, 2).join('; ') || 'the run failed' : '**NOT CAUGHT**'} |`)
  }
  if (missed) {
    console.error(`${missed} planted bug(s) not caught`)
    process.exit(1)
  }
}
