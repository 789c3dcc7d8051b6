// Products: the image list of each (its paths in display order, as JSON) and
// the rank of each active product for unfiltered pages, recomputed for every
// product when the catalogue changed (it is small).
import type { Database } from 'bun:sqlite'

/**
 * The derivation, as SQL run in order. A sync that finds products and product_images
 * unchanged at the master skips it (sync/run.ts); its text is part of their
 * fingerprints, so a release that derives otherwise derives again once.
 */
export const PRODUCTS_DERIVATION = [
  `UPDATE products SET
    images = coalesce((SELECT json_group_array(image_path) FROM
      (SELECT image_path FROM product_images i WHERE i.product_id = products.id ORDER BY sort_order, id)), '[]'),
    active_seq = NULL`,
  `UPDATE products SET active_seq = w.seq
    FROM (SELECT id, row_number() OVER (ORDER BY id) AS seq FROM products WHERE status = 1) w WHERE products.id = w.id`,
]

export function deriveProducts(client: Database): void {
  for (const sql of PRODUCTS_DERIVATION) client.run(sql)
}
