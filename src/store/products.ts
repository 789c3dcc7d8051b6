// Active products by filter, in id order. Each filter column has a partial
// index over active rows; an unfiltered page seeks active_seq directly.
import { text } from './bound'
import type { Store } from './open'

export const PRODUCT_FILTERS = {
  color: 'color',
  finish: 'finish',
  series: 'series',
  size: 'size',
  surface: 'surface',
  range: 'product_range',
  texture: 'texture',
} as const
export type ProductFilter = keyof typeof PRODUCT_FILTERS
export type ProductFilters = Partial<Record<ProductFilter, string>>

interface ProductRow {
  id: number
  sku: string
  name: string
  description: string
  status: number
  images: string // JSON array of stored paths
  color: string | null
  finish: string | null
  series: string | null
  size: string | null
  surface: string | null
  range: string | null
  texture: string | null
}

const COLUMNS = `id, sku, name, coalesce(description, '') AS description, status, images,
  color, finish, series, size, surface, product_range AS range, texture`

export function productPage(db: Store, filters: ProductFilters, limit: number, offset: number): { total: number; rows: ProductRow[] } {
  const used = (Object.keys(PRODUCT_FILTERS) as ProductFilter[]).filter((k) => filters[k] !== undefined)
  if (used.length === 0) {
    const total = db.$client.query<{ n: number | null }, []>('SELECT max(active_seq) AS n FROM products').get()?.n ?? 0
    const rows = db.$client
      .query<ProductRow, [number, number]>(
        `SELECT ${COLUMNS} FROM products WHERE active_seq > ? ORDER BY active_seq LIMIT ?`,
      )
      .all(offset, limit)
    return { total, rows }
  }
  // values are bound, never spliced; only the fixed column names vary
  const where = ['status = 1', ...used.map((k) => `${PRODUCT_FILTERS[k]} = ${text()}`)].join(' AND ')
  const values = used.map((k) => filters[k]!)
  const total = db.$client.query<{ n: number }, string[]>(`SELECT count(*) AS n FROM products WHERE ${where}`).get(...values)!.n
  const rows =
    offset >= total
      ? []
      : db.$client
          .query<ProductRow, (string | number)[]>(
            `SELECT ${COLUMNS} FROM products WHERE ${where} ORDER BY id LIMIT ? OFFSET ?`,
          )
          .all(...values, limit, offset)
  return { total, rows }
}
