// Products: the image list of each (its paths in display order, as JSON) and
// the rank of each active product for unfiltered pages, recomputed for every
// product when the catalogue changed (it is small), and written only where they
// change: rewriting every product dirtied all the table's pages for one image.
import type { Database } from 'bun:sqlite'

const IMAGES = `coalesce((SELECT json_group_array(image_path) FROM
      (SELECT image_path FROM product_images i WHERE i.product_id = products.id ORDER BY sort_order, id)), '[]')`
/** Each product's rank among the active ones by id (NULL for one not active). */
const RANKS = `(SELECT id, iif(status = 1, row_number() OVER (PARTITION BY status = 1 ORDER BY id), NULL) AS seq FROM products) r`

/**
 * The derivation, as SQL run in order. A sync that finds products and product_images
 * unchanged at the master skips it (sync/run.ts); its text is part of their
 * fingerprints, so a release that derives otherwise derives again once. Ranks are
 * unique: the ranks that change are let go first, then taken (a rank kept stays where
 * it is, so none taken is held).
 */
export const PRODUCTS_DERIVATION = [
  `UPDATE products SET images = ${IMAGES} WHERE images IS NOT ${IMAGES}`,
  `UPDATE products SET active_seq = NULL FROM ${RANKS} WHERE products.id = r.id AND products.active_seq IS NOT r.seq AND products.active_seq IS NOT NULL`,
  `UPDATE products SET active_seq = r.seq FROM ${RANKS} WHERE products.id = r.id AND products.active_seq IS NOT r.seq`,
]

export function deriveProducts(client: Database): void {
  for (const sql of PRODUCTS_DERIVATION) client.run(sql)
}
