// Active products by filter, in id order. The catalogue is small (20,000
// products at production size), so each data version's active products are
// held in memory (built once, after a sync commits: store/snapshot.ts), with
// one list per value of each filter. A page walks the shortest list of the
// filters supplied and checks the others on each product: no statement runs.
import type { Store } from './open'
import { PER_VERSION, perVersion } from './snapshot'

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
const FILTERS = Object.keys(PRODUCT_FILTERS) as ProductFilter[]

export interface Product {
  id: number
  sku: string
  name: string
  description: string
  /** stored image paths in display order */
  images: string[]
  color: string | null
  finish: string | null
  series: string | null
  size: string | null
  surface: string | null
  range: string | null
  texture: string | null
}

interface Catalogue {
  /** active products by id */
  products: Product[]
  /** per filter, the active products of each value, by id */
  lists: Record<ProductFilter, Map<string, Product[]>>
}

const NONE: Product[] = []

const catalogueOf = perVersion((db: Store): Catalogue => {
  const rows = db.$client
    .query<Omit<Product, 'images'> & { images: string }, []>(
      `${PER_VERSION} SELECT id, sku, name, coalesce(description, '') AS description, images,
        color, finish, series, size, surface, product_range AS range, texture
      FROM products WHERE status = 1 ORDER BY id`,
    )
    .all()
  const lists = Object.fromEntries(FILTERS.map((f) => [f, new Map<string, Product[]>()])) as Catalogue['lists']
  const products = rows.map((r) => {
    const p: Product = { ...r, images: JSON.parse(r.images) as string[] }
    for (const f of FILTERS) {
      const value = p[f]
      if (value === null) continue // a filter value is a string: NULL never matches
      const list = lists[f].get(value)
      if (list) list.push(p)
      else lists[f].set(value, [p])
    }
    return p
  })
  return { products, lists }
})

/** One page of the active products matching every filter given, and how many match in all. */
export function productPage(db: Store, filters: ProductFilters, limit: number, offset: number): { total: number; rows: Product[] } {
  const { products, lists } = catalogueOf(db)
  const used = FILTERS.filter((f) => filters[f] !== undefined)
  if (used.length === 0) return { total: products.length, rows: products.slice(offset, offset + limit) }
  // the shortest list of the supplied values drives; the other filters are checked on its products
  let driver = used[0]
  let list = lists[driver].get(filters[driver]!) ?? NONE
  for (const f of used) {
    const candidate = lists[f].get(filters[f]!) ?? NONE
    if (candidate.length < list.length) [driver, list] = [f, candidate]
  }
  const others = used.filter((f) => f !== driver)
  if (others.length === 0) return { total: list.length, rows: list.slice(offset, offset + limit) }
  const rows: Product[] = []
  let total = 0
  for (const p of list) {
    if (!others.every((f) => p[f] === filters[f])) continue
    if (total >= offset && rows.length < limit) rows.push(p)
    total++
  }
  return { total, rows }
}
