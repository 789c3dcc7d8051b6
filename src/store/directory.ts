// Who and what is visible: integrations, dealers, stores and employees. These
// tables are small even at production size (10,000 stores, 20,000 employee
// links), so each snapshot's copy is held in memory and a request's lookups
// are map reads, not statements. The copy is rebuilt when a sync changed one
// of the tables (store/snapshot.ts perContent); the statements that build it
// read the tables whole, in the order the answers list them, so SQLite's
// collation decides every order.
import type { Store } from './open'
import { interner } from './interned'
import { PER_VERSION, perContent, sliced, type Steps } from './snapshot'

export interface Integration {
  id: number
  name: string
}

export interface StoreRow {
  website_id: number
  sap_code: string
  dealership_name: string
  city: string
  state: string
  /** the store as every call record shows it (spec 2.1), NULL parts kept */
  face: StoreFace
}

/** A store's fields in a call record (spec 2.1), in the record's order. */
export interface StoreFace {
  website_id: number
  sap_code: string
  dealership_name: string
  city: string | null
  district: string | null
  state: string | null
  country: string | null
  pincode: string | null
}

interface EmployeeRow {
  emp_code: string
  name: string
  sales_off: string
  role: string
}

interface Directory {
  integrations: Map<string, Integration>
  activeDealers: Set<string>
  visibleStores: Map<number, StoreRow>
  /** a visible store's face by website_id (facesById) */
  faceOf: (websiteId: number) => StoreFace | null
  storesOfDealer: Map<string, StoreRow[]>
  activeEmployees: Map<string, EmployeeRow>
  storesOfEmployee: Map<string, StoreRow[]>
}

const NONE: StoreRow[] = []


// kept while the five tables are the same (snapshot.ts perContent)
const directoryOf = perContent(['integrations', 'dealers', 'stores', 'employees', 'employee_dealers'], function* (db: Store): Steps<Directory> {
  const rows = <T>(sql: string) => db.$client.query<T, []>(`${PER_VERSION} ${sql}`).iterate()
  const integrations = new Map<string, Integration>()
  yield* sliced(rows<Integration & { key_sha256: string }>('SELECT id, name, key_sha256 FROM integrations WHERE is_active = 1'), (r) => {
    integrations.set(r.key_sha256, { id: r.id, name: r.name })
  })
  const activeDealers = new Set<string>()
  yield* sliced(rows<{ sap_code: string }>('SELECT sap_code FROM dealers WHERE is_active = 1'), (r) => activeDealers.add(r.sap_code))
  // In store entries and dealer blocks a NULL city or state is "" (master-contract §2); call records keep NULL.
  const visibleStores = new Map<number, StoreRow>()
  const storesOfDealer = new Map<string, StoreRow[]>()
  const same = interner() // places repeat across stores
  yield* sliced(rows<StoreFace>(`SELECT website_id, sap_code, dealership_name, city, district, state, country, pincode
      FROM stores WHERE visible = 1 ORDER BY website_id`), (read) => {
    const f: StoreFace = { ...read, city: same(read.city), district: same(read.district), state: same(read.state), country: same(read.country) }
    const s: StoreRow = { website_id: f.website_id, sap_code: f.sap_code, dealership_name: f.dealership_name, city: f.city ?? '', state: f.state ?? '', face: f }
    visibleStores.set(s.website_id, s)
    const list = storesOfDealer.get(s.sap_code)
    if (list) list.push(s)
    else storesOfDealer.set(s.sap_code, [s])
  })
  const activeEmployees = new Map<string, EmployeeRow>()
  yield* sliced(rows<EmployeeRow>('SELECT emp_code, emp_name AS name, sales_office AS sales_off, role FROM employees WHERE is_active = 1'), (e) => {
    activeEmployees.set(e.emp_code, e)
  })
  const storesOfEmployee = new Map<string, StoreRow[]>()
  yield* sliced(rows<{ emp_code: string; website_id: number }>(`SELECT e.emp_code, s.website_id FROM employee_dealers e
      JOIN stores s ON s.sap_code = e.sap_code AND s.visible = 1 ORDER BY e.emp_code, e.sap_code, s.website_id`), (r) => {
    const store = visibleStores.get(r.website_id)!
    const list = storesOfEmployee.get(r.emp_code)
    if (list) list.push(store)
    else storesOfEmployee.set(r.emp_code, [store])
  })
  return { integrations, activeDealers, visibleStores, faceOf: facesById(visibleStores), storesOfDealer, activeEmployees, storesOfEmployee }
})

/** Ids at most this many a store (and this many more) are dense enough for an array by id. */
const DENSE_IDS_PER_STORE = 4
const DENSE_IDS_SLACK = 65_536

/**
 * Stores' faces by website_id, for call records: a page's records are of stores from
 * all over the directory, and a Map reached each face through two more objects that
 * under load are out of the CPU's caches (its entry, the StoreRow). An array indexed by
 * website_id, of about 8 bytes an id, when the ids are dense enough to keep it small
 * (the master numbers its websites one after another); else the Map. Served B/A 1.12
 * (month), 1.10 (missed calls), 1.12 and 1.15 (the feed's walks; docs/benchmarks.md,
 * twenty-first session).
 */
export function facesById(stores: ReadonlyMap<number, StoreRow>): (websiteId: number) => StoreFace | null {
  let last = 0
  for (const id of stores.keys()) last = Math.max(last, id)
  if (last > DENSE_IDS_PER_STORE * stores.size + DENSE_IDS_SLACK) return (id) => stores.get(id)?.face ?? null
  const faces: (StoreFace | null)[] = Array.from({ length: last + 1 }, () => null)
  for (const [id, store] of stores) faces[id] = store.face
  return (id) => faces[id] ?? null
}

export const integrationByKeyHash = (db: Store, keySha256: string): Integration | null => directoryOf(db).integrations.get(keySha256) ?? null

export const dealerIsActive = (db: Store, sapCode: string): boolean => directoryOf(db).activeDealers.has(sapCode)

export const visibleStore = (db: Store, websiteId: number): StoreRow | null => directoryOf(db).visibleStores.get(websiteId) ?? null

/** Every visible store by website_id. */
export const visibleStores = (db: Store): ReadonlyMap<number, StoreRow> => directoryOf(db).visibleStores

/** A visible store's face by website_id, for a page of rows to look up their stores in one go (null: not visible). */
export const storeFaces = (db: Store): ((websiteId: number) => StoreFace | null) => directoryOf(db).faceOf

/** Visible stores of one dealer, by website_id (decision 17). */
export const storesOfDealer = (db: Store, sapCode: string): StoreRow[] => directoryOf(db).storesOfDealer.get(sapCode) ?? NONE

export const activeEmployee = (db: Store, empCode: string): EmployeeRow | null => directoryOf(db).activeEmployees.get(empCode) ?? null

/** Visible stores of the dealers an employee looks after, by sap_code then website_id (decision 18). */
export const storesOfEmployee = (db: Store, empCode: string): StoreRow[] => directoryOf(db).storesOfEmployee.get(empCode) ?? NONE
