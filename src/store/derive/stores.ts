// Stores: visible (not deleted, dealer active: master-contract §1) and
// dealership_name (the store's name, else the dealer's, else the literal, §2),
// recomputed for every store when stores or dealers changed (ten thousand rows: cheap),
// and written only where they change.
import type { Database } from 'bun:sqlite'
import { isBlank } from '../fieldRules'

/**
 * The derivation. A sync that finds websites and dealer_master unchanged at the master
 * skips it (sync/run.ts); its text is part of their fingerprints, so a release that
 * derives otherwise derives again once.
 */
const VISIBLE = '(is_deleted = 0 AND EXISTS (SELECT 1 FROM dealers d WHERE d.sap_code = stores.sap_code AND d.is_active = 1))'
const DEALERSHIP_NAME = `CASE
      WHEN NOT ${isBlank('store_name')} THEN store_name
      WHEN NOT ${isBlank('(SELECT dealer_name FROM dealers d WHERE d.sap_code = stores.sap_code)')}
        THEN (SELECT dealer_name FROM dealers d WHERE d.sap_code = stores.sap_code)
      ELSE 'Dealer Name Not Available' END`
// a row written only where it changes: rewriting every store dirtied all the table's pages for one renamed store
export const STORES_DERIVATION = `UPDATE stores SET visible = ${VISIBLE}, dealership_name = ${DEALERSHIP_NAME}
    WHERE (visible, dealership_name) IS NOT (${VISIBLE}, ${DEALERSHIP_NAME})`

export function deriveStores(client: Database): void {
  client.run(STORES_DERIVATION)
}

/**
 * Each store's visibility and what it shows in its calls' records (spec 2.1), read at once:
 * the face, or '' when its calls are not visible. A run compares two readings to tell which
 * stores turned (minute totals) and which changed face (the change feed, store/feed.ts).
 */
export type StoreFaces = Map<number, string>

export function storeFaces(client: Database): StoreFaces {
  const rows = client
    .query<{ website_id: number; face: string }, []>(
      `SELECT website_id, iif(visible, json_array(sap_code, dealership_name, city, district, state, country, pincode), '') AS face FROM stores`,
    )
    .all()
  return new Map(rows.map((r) => [r.website_id, r.face]))
}

/** Visible in that reading (a store gone counts as invisible). */
export const isVisibleIn = (faces: StoreFaces, websiteId: number) => (faces.get(websiteId) ?? '') !== ''

/** The ids of the visible stores. */
export function storesVisible(client: Database): number[] {
  return (client.query('SELECT website_id FROM stores WHERE visible = 1').all() as { website_id: number }[]).map((r) => r.website_id)
}

/** The stores whose visibility differs between two readings. */
export function storesThatTurned(before: StoreFaces, after: StoreFaces): number[] {
  const ids = new Set([...before.keys(), ...after.keys()])
  return [...ids].filter((id) => isVisibleIn(before, id) !== isVisibleIn(after, id))
}

/** SQL: whether a store is visible now (calls.visible is this of the call's store). */
export const STORE_VISIBLE_SQL = (websiteId: string) => `coalesce((SELECT s.visible FROM stores s WHERE s.website_id = ${websiteId}), 0)`

/** The calls of stores that turned visible or invisible take their store's visibility (one range of calls_store each). */
export function markCallsVisible(client: Database, websiteIds: number[]): void {
  const mark = client.query(`UPDATE calls SET visible = ${STORE_VISIBLE_SQL('?1')} WHERE website_id = ?1`)
  for (const id of websiteIds) mark.run(id)
}
