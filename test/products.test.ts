// POST /products/filter (spec 4.7, decisions 24-26) against db/fixtures/test.ts.
import { describe, expect, test } from 'bun:test'
import { imageUrl } from '../src/http/routes/productFilter'
import { post, testApp } from './helpers'
import { TEST_DATA_AS_OF } from '../db/fixtures/test'

const t = testApp()
const PATH = '/products/filter'
const filter = (body: unknown) => post(t, PATH, body)
const ids = (r: { json: any }) => r.json.data.map((p: any) => p.id)

describe('product filter', () => {
  test('{} is the first page of all active products, by id', async () => {
    const r = await filter({})
    const { data, ...rest } = r.json
    // 30 products, one of them (3) inactive
    expect(rest).toEqual({ code: 200, status: true, data_as_of: TEST_DATA_AS_OF, user: 'Acme Partner', page: 1, limit: 20, returned: 20, total: 29, total_pages: 2, has_more: true })
    expect(ids(r)).toEqual([1, 2, 4, 5, ...Array.from({ length: 16 }, (_, i) => 6 + i)])
  })

  test('a product has the fields of spec 2.7 plus its attributes, images as absolute URLs in display order', async () => {
    const r = await filter({ color: 'White' })
    expect(r.json.data).toEqual([
      {
        id: 1,
        sku: 'SKU-1',
        name: 'Marble White',
        description: 'Tile number 1',
        status: 1,
        images: ['https://cdn.example.com/1/room.jpg', 'https://img.example.com/media/tiles/1/front.jpg'],
        color: 'White',
        finish: 'Glossy',
        series: 'Classic',
        size: '600x1200',
        surface: 'Floor',
        range: 'Everyday',
        texture: 'Stone',
      },
    ])
  })

  test('no images is an empty array; NULL description is ""; NULL attributes stay null', async () => {
    const r = await filter({ limit: 5 })
    const five = r.json.data.find((p: any) => p.id === 5)
    expect(five).toMatchObject({ images: [], description: '', color: null, finish: null, range: null, texture: null })
  })

  test('filter values match exactly: case and trailing spaces count', async () => {
    expect(ids(await filter({ color: 'White' }))).toEqual([1])
    expect(ids(await filter({ color: 'White ' }))).toEqual([2])
    expect(ids(await filter({ color: 'white' }))).toEqual([4])
    expect(ids(await filter({ color: 'WHITE' }))).toEqual([])
    // with another filter too (several filters take another path)
    expect(ids(await filter({ color: 'White ', finish: 'Matt' }))).toEqual([2])
    expect(ids(await filter({ color: 'white', finish: 'Matt' }))).toEqual([4])
    expect(ids(await filter({ color: 'White', finish: 'Glossy' }))).toEqual([1])
  })

  test('several filters must all match', async () => {
    const r = await filter({ color: 'Grey', finish: 'Glossy', limit: 100 })
    expect(ids(r)).toEqual([7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29])
    expect(r.json.total).toBe(12)
    expect(ids(await filter({ color: 'White', finish: 'Matt' }))).toEqual([])
    expect(ids(await filter({ size: '600x1200', range: 'Everyday', texture: 'Stone', surface: 'Floor', series: 'Classic' }))).toEqual([1])
  })

  test('an unknown value is an empty 200, not an error (decision 25)', async () => {
    const r = await filter({ series: 'Nope' })
    expect(r.json).toEqual({ code: 200, status: true, data_as_of: TEST_DATA_AS_OF, user: 'Acme Partner', page: 1, limit: 20, returned: 0, total: 0, total_pages: 0, has_more: false, data: [] })
  })

  test('null and "" mean the filter is not applied', async () => {
    expect((await filter({ color: null, finish: '' })).json.total).toBe(29)
  })

  test('an inactive product never appears', async () => {
    expect(ids(await filter({ color: 'White', limit: 100 }))).not.toContain(3)
    const all = await filter({ limit: 100 })
    expect(ids(all)).not.toContain(3)
    expect(all.json.returned).toBe(29)
  })

  test('pages: the second page holds the rest; past the end is an empty 200', async () => {
    const r = await filter({ page: 2 })
    expect(r.json).toMatchObject({ page: 2, limit: 20, returned: 9, total: 29, total_pages: 2, has_more: false })
    expect(ids(r)).toEqual(Array.from({ length: 9 }, (_, i) => 22 + i))
    const filtered = await filter({ color: 'Grey', page: 2, limit: 10 })
    expect(ids(filtered)).toEqual(Array.from({ length: 10 }, (_, i) => 16 + i))
    expect((await filter({ page: 3 })).json).toMatchObject({ code: 200, returned: 0, data: [], has_more: false })
  })

  test('a page far past the end is an empty 200', async () => {
    for (const page of [1e21, '99999999999999999999']) {
      expect((await filter({ page })).json).toMatchObject({ code: 200, returned: 0, total: 29, data: [] })
      expect((await filter({ page, color: 'Grey' })).json).toMatchObject({ code: 200, returned: 0, total: 25, data: [] })
    }
  })

  test('limit is clamped to 100 and echoed', async () => {
    expect((await filter({ limit: 1000 })).json.limit).toBe(100)
  })

  test.each([
    [{ color: 5 }, 'color must be a string'],
    [{ range: ['Premium'] }, 'range must be a string'],
    [{ texture: { a: 1 } }, 'texture must be a string'],
    [{ page: 0 }, 'page must be a positive integer'],
    [{ limit: 2.5 }, 'limit must be a positive integer'],
  ])('400 for %j: %s', async (body, message) => {
    const r = await filter(body)
    expect(r.json).toEqual({ code: 400, status: false, message })
  })
})

describe('image URLs', () => {
  test.each([
    ['https://img.example.com', 'tiles/a.jpg', 'https://img.example.com/tiles/a.jpg'],
    ['https://img.example.com/', 'tiles/a.jpg', 'https://img.example.com/tiles/a.jpg'],
    ['https://img.example.com/', '/tiles/a.jpg', 'https://img.example.com/tiles/a.jpg'],
    ['https://img.example.com', '/tiles/a.jpg', 'https://img.example.com/tiles/a.jpg'],
    ['https://img.example.com/', 'http://old.example.com/a.jpg', 'http://old.example.com/a.jpg'],
    ['https://img.example.com/', 'https://old.example.com/a.jpg', 'https://old.example.com/a.jpg'],
  ])('%s + %s', (base, path, expected) => {
    expect(imageUrl(base, path)).toBe(expected)
  })
})

// The filter walks per-value bitmaps, a word of 32 products at a time: checked
// against a plain scan over a catalogue of many words, inactive products and
// NULL attributes scattered through it, at pages that begin and end inside words.
describe('several filters over a catalogue of many words', () => {
  const { openStore } = require('../src/store/open') as typeof import('../src/store/open')
  const { loadRows } = require('../src/store/load') as typeof import('../src/store/load')
  const { productPage } = require('../src/store/products') as typeof import('../src/store/products')
  const { readSnapshot } = require('../src/store/snapshot') as typeof import('../src/store/snapshot')
  const db = openStore(':memory:')
  let seed = 7
  const next = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n)
  const pick = (values: (string | null)[]) => values[next(values.length)]
  const products = Array.from({ length: 700 }, (_, i) => ({
    id: 3 * i + 1, sku: `S${i}`, name: `P${i}`, description: null,
    color: pick(['Grey', 'White', 'Beige', null]), finish: pick(['Matt', 'Glossy']), series: pick(['A', 'B', 'C']),
    size: pick(['600x600', '300x300']), surface: pick(['Floor', 'Wall', null]), product_range: 'Everyday', texture: pick(['Stone', 'Wood']),
    status: next(10) === 0 ? 0 : 1,
  }))
  loadRows(db, { dealers: [], stores: [], employees: [], employee_dealers: [], products, product_images: [], integrations: [], metrics: [], calls: [] } as never)
  const active = products.filter((p) => p.status === 1)
  const cases: Record<string, string>[] = [
    { color: 'Grey', finish: 'Matt' },
    { color: 'White', finish: 'Glossy', series: 'B' },
    { size: '300x300', surface: 'Wall', texture: 'Wood' },
    { color: 'Beige', range: 'Everyday' },
    { color: 'Grey', finish: 'Matt', series: 'A', size: '600x600', surface: 'Floor', range: 'Everyday', texture: 'Stone' },
    { color: 'Grey', finish: 'Satin' },
  ]
  const column = (f: string) => (f === 'range' ? 'product_range' : f) as keyof (typeof products)[number]
  for (const filters of cases) {
    test(JSON.stringify(filters), () => {
      const matching = active.filter((p) => Object.entries(filters).every(([f, v]) => p[column(f)] === v)).map((p) => p.id)
      for (const [limit, offset] of [[20, 0], [7, 13], [100, 31], [33, 64], [5, matching.length - 2], [10, matching.length + 5]]) {
        const page = readSnapshot(db, () => productPage(db, filters, limit, Math.max(0, offset)))
        expect(page.total).toBe(matching.length)
        expect(page.rows.map((p) => p.id)).toEqual(matching.slice(Math.max(0, offset), Math.max(0, offset) + limit))
      }
    })
  }
})

// A sync rewrites the products every run; the catalogue is built again only
// when the digests sync keeps of the two tables move (store/products.ts).
describe('the catalogue across data versions', () => {
  const { openStore } = require('../src/store/open') as typeof import('../src/store/open')
  const { seedTest } = require('../db/fixtures/test') as typeof import('../db/fixtures/test')
  const { productPage } = require('../src/store/products') as typeof import('../src/store/products')
  const { readSnapshot } = require('../src/store/snapshot') as typeof import('../src/store/snapshot')
  const page = (db: ReturnType<typeof openStore>) => readSnapshot(db, () => productPage(db, {}, 5, 0).rows)
  const setDigests = (db: ReturnType<typeof openStore>, products: string, images: string) =>
    db.$client.query("INSERT INTO meta (key, value) VALUES ('digest:products', ?), ('digest:product_images', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value").run(products, images)

  test('the same digests keep the catalogue through a new data version; a moved digest builds it again', () => {
    const db = openStore(':memory:')
    seedTest(db)
    setDigests(db, 'p1', 'i1')
    const first = page(db)
    db.$client.run("INSERT INTO meta (key, value) VALUES ('unrelated', 'x')") // a new data version, the products as they were
    expect(page(db)[0]).toBe(first[0])
    db.$client.run("UPDATE products SET name = 'Renamed' WHERE id = 1")
    setDigests(db, 'p2', 'i1')
    const renamed = page(db)
    expect(renamed[0]).not.toBe(first[0])
    expect(renamed[0].name).toBe('Renamed')
    db.$client.run("UPDATE products SET name = 'Again' WHERE id = 1")
    setDigests(db, 'p2', 'i2') // the images' digest alone moved
    expect(page(db)[0].name).toBe('Again')
  })

  test('a store without digests (fixtures, demo) builds the catalogue again at each data version', () => {
    const db = openStore(':memory:')
    seedTest(db)
    const first = page(db)
    db.$client.run("UPDATE products SET name = 'Renamed' WHERE id = 1")
    expect(page(db)[0].name).toBe('Renamed')
    expect(page(db)[0]).not.toBe(first[0])
  })
})
