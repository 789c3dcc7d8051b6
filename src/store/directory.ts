// Who and what is visible: integrations, dealers, stores and employees.
// Every statement is a primary-key or index seek.
import type { Store } from './open'

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
}

export function integrationByKeyHash(db: Store, keySha256: string): Integration | null {
  return db.$client
    .query<Integration, [string]>('SELECT id, name FROM integrations WHERE key_sha256 = ? AND is_active = 1')
    .get(keySha256)
}

export function dealerIsActive(db: Store, sapCode: string): boolean {
  return db.$client.query('SELECT 1 FROM dealers WHERE sap_code = ? AND is_active = 1').get(sapCode) !== null
}

// In store entries and dealer blocks a NULL city or state is "" (master-contract §2).
const STORE_COLUMNS = `website_id, sap_code, dealership_name, coalesce(city, '') AS city, coalesce(state, '') AS state`

export function visibleStore(db: Store, websiteId: number): StoreRow | null {
  return db.$client
    .query<StoreRow, [number]>(`SELECT ${STORE_COLUMNS} FROM stores WHERE website_id = ? AND visible = 1`)
    .get(websiteId)
}

/** Visible stores of one dealer, by website_id (decision 17). */
export function storesOfDealer(db: Store, sapCode: string): StoreRow[] {
  return db.$client
    .query<StoreRow, [string]>(
      `SELECT ${STORE_COLUMNS} FROM stores WHERE sap_code = ? AND visible = 1 ORDER BY website_id`,
    )
    .all(sapCode)
}

export interface EmployeeRow {
  emp_code: string
  name: string
  sales_off: string
  role: string
}

export function activeEmployee(db: Store, empCode: string): EmployeeRow | null {
  return db.$client
    .query<EmployeeRow, [string]>(
      'SELECT emp_code, emp_name AS name, sales_office AS sales_off, role FROM employees WHERE emp_code = ? AND is_active = 1',
    )
    .get(empCode)
}

/** Visible stores of the dealers an employee looks after, by sap_code then website_id (decision 18). */
export function storesOfEmployee(db: Store, empCode: string): StoreRow[] {
  return db.$client
    .query<StoreRow, [string]>(
      `SELECT s.website_id, s.sap_code, s.dealership_name, coalesce(s.city, '') AS city, coalesce(s.state, '') AS state
       FROM employee_dealers e JOIN stores s ON s.sap_code = e.sap_code AND s.visible = 1
       WHERE e.emp_code = ? ORDER BY e.sap_code, s.website_id`,
    )
    .all(empCode)
}
