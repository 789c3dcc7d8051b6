// POST /products/filter — active products by attribute (spec 4.7, decisions 24-26).
import { Elysia, t } from 'elysia'
import { productPage, PRODUCT_FILTERS, type Product as StoredProduct, type ProductFilter, type ProductFilters } from '../../store/products'
import { examples } from '../examples'
import { apiKeyDescription } from '../auth'
import { readSnapshot } from '../../store/snapshot'
import { apiContext, type ApiDeps } from '../context'
import { answerRows, okHead, rowsOf } from '../answer'
import { utf8 } from '../jsonBytes'
import { optionalString, pageFields, pageOf, pagingOf } from '../inputs'
import { Int, okFields, pagingFields, responses, routeOptions } from '../responses'

const filterDocs: Record<ProductFilter, string> = {
  color: 'Colour name',
  finish: 'Finish name',
  series: 'Series name',
  size: 'Size code, like 600x1200',
  surface: 'Surface type',
  range: 'Product range',
  texture: 'Texture / look and feel',
}

const Body = t.Object({
  color: optionalString('color', `${filterDocs.color}; matched exactly (case and spaces count)`),
  finish: optionalString('finish', filterDocs.finish),
  series: optionalString('series', filterDocs.series),
  size: optionalString('size', filterDocs.size),
  surface: optionalString('surface', filterDocs.surface),
  range: optionalString('range', filterDocs.range),
  texture: optionalString('texture', filterDocs.texture),
  ...pageFields(20, 100),
  api_key: optionalString('api_key', apiKeyDescription),
}, { title: 'ProductFilterRequest' })

const Product = t.Object({
  id: Int(),
  sku: t.String(),
  name: t.String(),
  description: t.String(),
  status: t.Literal(1),
  images: t.Array(t.String(), { description: 'Absolute image URLs in display order' }),
  color: t.Nullable(t.String()),
  finish: t.Nullable(t.String()),
  series: t.Nullable(t.String()),
  size: t.Nullable(t.String()),
  surface: t.Nullable(t.String()),
  range: t.Nullable(t.String()),
  texture: t.Nullable(t.String()),
}, { title: 'Product' })

const Ok = t.Object({
  ...okFields,
  user: t.String(),
  ...pagingFields(),
  data: t.Array(Product),
}, { title: 'ProductFilterAnswer' })

/** A stored image path as an absolute URL (master-contract §2). */
export function imageUrl(base: string, path: string): string {
  if (path.startsWith('http://') || path.startsWith('https://')) return path
  return `${base.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`
}

export const productFilter = (deps: ApiDeps) => {
  // a product's JSON, rendered the first time a page shows it (kept with its catalogue)
  const rendered = new WeakMap<StoredProduct, Uint8Array>()
  const render = (p: StoredProduct) => {
    let json = rendered.get(p)
    if (json === undefined) {
      const product: typeof Product.static = {
        id: p.id, sku: p.sku, name: p.name, description: p.description, status: 1,
        images: p.images.map((path) => imageUrl(deps.imageBaseUrl, path)),
        color: p.color, finish: p.finish, series: p.series, size: p.size, surface: p.surface, range: p.range, texture: p.texture,
      }
      rendered.set(p, (json = utf8(JSON.stringify(product))))
    }
    return json
  }
  return new Elysia().use(apiContext(deps)).post(
    '/products/filter',
    ({ body, integration, request, set }) =>
      readSnapshot(deps.db, () => {
        const page = pageOf(body, 20, 100)
        const filters: ProductFilters = {}
        for (const key of Object.keys(PRODUCT_FILTERS) as ProductFilter[]) {
          const value = body[key]
          if (value !== undefined && value !== null && value !== '') filters[key] = value
        }
        const { total, rows } = productPage(deps.db, filters, page.limit, page.offset)
        return answerRows<typeof Ok.static>({ request, set }, {
          ...okHead(deps.db),
          user: integration.name,
          ...pagingOf(total, page, rows.length),
        }, rowsOf<typeof Product.static, StoredProduct>(rows, (row, out) => out.bytes(render(row))))
      }),
    routeOptions(Body, responses(Ok, examples['/products/filter']), {
      summary: 'Product filter',
      tag: 'Products',
      description:
        'Active products matching every supplied filter, by id. Filters match exactly as written; an unknown value gives an empty `data`. `{}` returns the first page unfiltered.',
    }),
  )
}
