// Products: the image list of each (its paths in display order, as JSON) and
// the rank of each active product for unfiltered pages, recomputed for every
// product each run (the catalogue is small).
import type { Database } from 'bun:sqlite'

export function deriveProducts(client: Database): void {
  client.run(`UPDATE products SET
    images = coalesce((SELECT json_group_array(image_path) FROM
      (SELECT image_path FROM product_images i WHERE i.product_id = products.id ORDER BY sort_order, id)), '[]'),
    active_seq = NULL`)
  client.run(`UPDATE products SET active_seq = w.seq
    FROM (SELECT id, row_number() OVER (ORDER BY id) AS seq FROM products WHERE status = 1) w WHERE products.id = w.id`)
}
