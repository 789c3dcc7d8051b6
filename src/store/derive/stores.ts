// Stores: visible (not deleted, dealer active: master-contract §1) and
// dealership_name (the store's name, else the dealer's, else the literal, §2),
// recomputed for every store each run (ten thousand rows: cheap).
import type { Database } from 'bun:sqlite'
import { isBlank } from '../fieldRules'

export function deriveStores(client: Database): void {
  client.run(`UPDATE stores SET
    visible = (is_deleted = 0 AND EXISTS (SELECT 1 FROM dealers d WHERE d.sap_code = stores.sap_code AND d.is_active = 1)),
    dealership_name = CASE
      WHEN NOT ${isBlank('store_name')} THEN store_name
      WHEN NOT ${isBlank('(SELECT dealer_name FROM dealers d WHERE d.sap_code = stores.sap_code)')}
        THEN (SELECT dealer_name FROM dealers d WHERE d.sap_code = stores.sap_code)
      ELSE 'Dealer Name Not Available' END`)
}

/** Each store's visibility now (1 or 0), to tell afterwards which stores turned. */
export function visibilityOf(client: Database): Map<number, number> {
  const rows = client.query('SELECT website_id, visible FROM stores').all() as { website_id: number; visible: number }[]
  return new Map(rows.map((r) => [r.website_id, r.visible]))
}

/** The ids of the visible stores. */
export function storesVisible(client: Database): number[] {
  return (client.query('SELECT website_id FROM stores WHERE visible = 1').all() as { website_id: number }[]).map((r) => r.website_id)
}

/** The stores whose visibility differs between two readings (a store gone counts as invisible). */
export function storesThatTurned(before: Map<number, number>, after: Map<number, number>): number[] {
  const ids = new Set([...before.keys(), ...after.keys()])
  return [...ids].filter((id) => (before.get(id) ?? 0) !== (after.get(id) ?? 0))
}
