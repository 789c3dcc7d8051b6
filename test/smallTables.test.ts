// A small table brought to the master's rows by an incremental run writes only the
// rows that differ, and the derivations from the small tables only the rows whose
// derived values change; the tables end exactly as written afresh.
import { describe, expect, test } from 'bun:test'
import { deriveProducts } from '../src/store/derive/products'
import { deriveStores } from '../src/store/derive/stores'
import { openStore, type Store } from '../src/store/open'
import type { SmallRow, SmallTable } from '../src/store/rows'
import { rewriteTable, updateTable } from '../src/store/smallTables'

const newStore = () => openStore(':memory:')

function write(db: Store, table: SmallTable, rows: SmallRow[], how: typeof updateTable): number {
  const w = how(db.$client, table)
  // in two batches, as sync hands them over
  w.take(rows.slice(0, Math.ceil(rows.length / 2)))
  w.take(rows.slice(Math.ceil(rows.length / 2)))
  return w.finish()
}

const all = (db: Store, table: string, order: string) => db.$client.query(`SELECT * FROM ${table} ORDER BY ${order}`).all()

/** Each row's changes while `run` runs: a temporary trigger logs the key of every row updated, inserted or deleted. */
function changedKeys(db: Store, table: string, key: string, run: () => void): string[] {
  const c = db.$client
  c.run('CREATE TEMP TABLE IF NOT EXISTS touched (what TEXT)')
  c.run('DELETE FROM temp.touched')
  for (const [event, row] of [['UPDATE', 'new'], ['INSERT', 'new'], ['DELETE', 'old']]) {
    c.run(`CREATE TEMP TRIGGER log_${event.toLowerCase()} AFTER ${event} ON main.${table} BEGIN INSERT INTO temp.touched VALUES ('${event} ' || ${row}.${key}); END`)
  }
  try {
    run()
  } finally {
    for (const event of ['update', 'insert', 'delete']) c.run(`DROP TRIGGER temp.log_${event}`)
  }
  return (c.query('SELECT what FROM temp.touched ORDER BY what').all() as { what: string }[]).map((r) => r.what)
}

const store = (id: number, sap: string, name: string | null, city = 'Pune', deleted = 0): SmallRow => ({
  website_id: id, sap_code: sap, store_name: name, city, district: null, state: 'MH', country: 'IN', pincode: '411001', is_deleted: deleted,
})
const dealer = (sap: string, name: string | null, active = 1): SmallRow => ({ sap_code: sap, dealer_name: name, is_active: active })
const key = (id: number, sha: string, active = 1): SmallRow => ({ id, name: `partner ${id}`, key_sha256: sha, is_active: active, created_at: '2025-01-01 00:00:00' })

describe('updateTable', () => {
  test('rows unchanged are not written; changed, new and gone rows are, and the table ends as written afresh', () => {
    const before = [store(1, 'SAP1', 'One'), store(2, 'SAP1', null), store(3, 'SAP2', 'Three'), store(4, 'SAP2', 'Four')]
    const after = [store(1, 'SAP1', 'One'), store(2, 'SAP1', 'Two now'), store(4, 'SAP2', 'Four', 'Agra'), store(5, 'SAP3', 'Five')]
    const db = newStore()
    write(db, 'stores', before, rewriteTable)
    let written = 0
    expect(changedKeys(db, 'stores', 'website_id', () => (written = write(db, 'stores', after, updateTable)))).toEqual([
      'DELETE 2', 'DELETE 3', 'DELETE 4', 'INSERT 2', 'INSERT 4', 'INSERT 5',
    ])
    expect(written).toBe(4) // 2 and 4 changed, 5 new, 3 gone
    const fresh = newStore()
    write(fresh, 'stores', after, rewriteTable)
    expect(all(db, 'stores', 'website_id')).toEqual(all(fresh, 'stores', 'website_id'))
    // the same rows again: nothing written
    expect(changedKeys(db, 'stores', 'website_id', () => (written = write(db, 'stores', after, updateTable)))).toEqual([])
    expect(written).toBe(0)
  })

  test('a key of a composite primary key, and NULL against the text NULL', () => {
    const db = newStore()
    write(db, 'employee_dealers', [{ emp_code: 'E1', sap_code: 'SAP1' }, { emp_code: 'E1', sap_code: 'SAP2' }], rewriteTable)
    expect(write(db, 'employee_dealers', [{ emp_code: 'E1', sap_code: 'SAP2' }, { emp_code: 'E2', sap_code: 'SAP1' }], updateTable)).toBe(2)
    expect(all(db, 'employee_dealers', 'emp_code, sap_code')).toEqual([{ emp_code: 'E1', sap_code: 'SAP2' }, { emp_code: 'E2', sap_code: 'SAP1' }])
    write(db, 'dealers', [dealer('SAP1', null)], rewriteTable)
    expect(write(db, 'dealers', [dealer('SAP1', 'NULL')], updateTable)).toBe(1)
    expect(all(db, 'dealers', 'sap_code')).toEqual([{ sap_code: 'SAP1', dealer_name: 'NULL', is_active: 1 }])
    expect(write(db, 'dealers', [dealer('SAP1', null)], updateTable)).toBe(1)
    expect(all(db, 'dealers', 'sap_code')).toEqual([{ sap_code: 'SAP1', dealer_name: null, is_active: 1 }])
  })

  test('a unique value passing from one row to another (two keys traded between partners)', () => {
    const db = newStore()
    write(db, 'integrations', [key(1, 'aaa'), key(2, 'bbb')], rewriteTable)
    expect(write(db, 'integrations', [key(1, 'bbb'), key(2, 'aaa')], updateTable)).toBe(2)
    expect(all(db, 'integrations', 'id').map((r: any) => [r.id, r.key_sha256])).toEqual([[1, 'bbb'], [2, 'aaa']])
  })

  test('a value the column stores as another type is written again, never kept as it was', () => {
    const db = newStore()
    // is_active as text '1': SQLite stores the integer 1, which is not the text the master sent
    write(db, 'dealers', [dealer('SAP1', 'A', '1' as never)], rewriteTable)
    expect(write(db, 'dealers', [dealer('SAP1', 'A', '1' as never)], updateTable)).toBe(1)
    expect(write(db, 'dealers', [dealer('SAP1', 'A', 1)], updateTable)).toBe(0)
    expect(all(db, 'dealers', 'sap_code')).toEqual([{ sap_code: 'SAP1', dealer_name: 'A', is_active: 1 }])
  })
})

describe('derivations write only the rows whose derived values change', () => {
  test('stores: a dealer renamed and one turned inactive touch only their stores', () => {
    const db = newStore()
    write(db, 'dealers', [dealer('SAP1', 'Dealer One'), dealer('SAP2', 'Dealer Two'), dealer('SAP3', 'Dealer Three')], rewriteTable)
    write(db, 'stores', [store(1, 'SAP1', null), store(2, 'SAP1', 'Own name'), store(3, 'SAP2', null), store(4, 'SAP3', null), store(5, 'SAP3', null, 'Pune', 1)], rewriteTable)
    // every store takes its name (a deleted one too), the visible ones their visibility
    expect(changedKeys(db, 'stores', 'website_id', () => deriveStores(db.$client))).toEqual(['UPDATE 1', 'UPDATE 2', 'UPDATE 3', 'UPDATE 4', 'UPDATE 5'])
    expect(changedKeys(db, 'stores', 'website_id', () => deriveStores(db.$client))).toEqual([])
    // SAP1 renamed (store 2 keeps its own name), SAP3 inactive (store 5 was invisible already)
    write(db, 'dealers', [dealer('SAP1', 'Renamed'), dealer('SAP2', 'Dealer Two'), dealer('SAP3', 'Dealer Three', 0)], updateTable)
    expect(changedKeys(db, 'stores', 'website_id', () => deriveStores(db.$client))).toEqual(['UPDATE 1', 'UPDATE 4'])
    expect(db.$client.query('SELECT website_id, visible, dealership_name FROM stores ORDER BY website_id').all()).toEqual([
      { website_id: 1, visible: 1, dealership_name: 'Renamed' },
      { website_id: 2, visible: 1, dealership_name: 'Own name' },
      { website_id: 3, visible: 1, dealership_name: 'Dealer Two' },
      { website_id: 4, visible: 0, dealership_name: 'Dealer Three' },
      { website_id: 5, visible: 0, dealership_name: 'Dealer Three' },
    ])
  })

  const product = (id: number, status = 1): SmallRow => ({
    id, sku: `SKU${id}`, name: `Tile ${id}`, description: null, color: 'Grey', finish: 'Matt', series: null, size: '600x600', surface: null, product_range: null, texture: null, status,
  })
  const image = (id: number, productId: number, sort: number): SmallRow => ({ id, product_id: productId, image_path: `p${productId}/${id}.jpg`, sort_order: sort })
  const derived = (db: Store) => (db.$client.query('SELECT id, images, active_seq FROM products ORDER BY id').all() as { id: number; images: string; active_seq: number | null }[])

  test('products: an image gone touches its product; a product turned inactive or active again moves only the ranks that change, each held by one product', () => {
    const db = newStore()
    const products = [1, 2, 3, 4, 5, 6].map((id) => product(id, id === 3 ? 0 : 1))
    write(db, 'products', products, rewriteTable)
    write(db, 'product_images', [image(10, 1, 2), image(11, 1, 1), image(12, 4, 1)], rewriteTable)
    deriveProducts(db.$client)
    expect(derived(db)).toEqual([
      { id: 1, images: '["p1/11.jpg","p1/10.jpg"]', active_seq: 1 },
      { id: 2, images: '[]', active_seq: 2 },
      { id: 3, images: '[]', active_seq: null },
      { id: 4, images: '["p4/12.jpg"]', active_seq: 3 },
      { id: 5, images: '[]', active_seq: 4 },
      { id: 6, images: '[]', active_seq: 5 },
    ])
    expect(changedKeys(db, 'products', 'id', () => deriveProducts(db.$client))).toEqual([])
    write(db, 'product_images', [image(10, 1, 2), image(12, 4, 1)], updateTable)
    expect(changedKeys(db, 'products', 'id', () => deriveProducts(db.$client))).toEqual(['UPDATE 1'])
    // product 2 inactive, 3 active again: both rows written again (their derived values start afresh),
    // and only 3 then takes a rank; no other product moves
    write(db, 'products', products.map((p) => ({ ...p, status: p.id === 2 ? 0 : 1 })), updateTable)
    expect(changedKeys(db, 'products', 'id', () => deriveProducts(db.$client))).toEqual(['UPDATE 3'])
    expect(derived(db).map((p) => [p.id, p.active_seq])).toEqual([[1, 1], [2, null], [3, 2], [4, 3], [5, 4], [6, 5]])
    // product 1 inactive: every rank after it moves down, one at a time, each held by one product only
    write(db, 'products', products.map((p) => ({ ...p, status: p.id === 1 || p.id === 2 ? 0 : 1 })), updateTable)
    deriveProducts(db.$client)
    expect(derived(db).map((p) => [p.id, p.active_seq])).toEqual([[1, null], [2, null], [3, 1], [4, 2], [5, 3], [6, 4]])
    // product 1 active again: every rank after it moves up, onto the rank the next product still holds
    write(db, 'products', products.map((p) => ({ ...p, status: p.id === 2 ? 0 : 1 })), updateTable)
    deriveProducts(db.$client)
    expect(derived(db).map((p) => [p.id, p.active_seq])).toEqual([[1, 1], [2, null], [3, 2], [4, 3], [5, 4], [6, 5]])
  })
})
