// bun run build: dist/listing-api, one executable with everything inside it
// (migrations, Swagger UI assets, demo data). The serving worker is an entry
// point of its own, as Bun's compiler needs for `new Worker`; the source map is
// embedded, so a logged stack names our files (the .map files Bun also writes
// beside it are not needed, and are removed).
//   bun scripts/build.ts [--outfile dist/listing-api]
import { rmSync } from 'node:fs'

/**
 * The threads' entry points beside the program's; their common folder, src/, is
 * the binary's root, where http/workers.ts and sync/progress.ts find them.
 */
export const ENTRYPOINTS = ['src/main.ts', 'src/http/worker.ts', 'src/sync/progressReporter.ts']

export async function build(outfile: string): Promise<void> {
  const result = await Bun.build({ entrypoints: ENTRYPOINTS, compile: { outfile }, minify: true, sourcemap: 'linked' })
  if (!result.success) throw new AggregateError(result.logs, 'build failed')
  for (const output of result.outputs) if (output.path.endsWith('.map')) rmSync(output.path, { force: true })
}

if (import.meta.main) {
  const at = process.argv.indexOf('--outfile')
  const outfile = at > 0 ? process.argv[at + 1] : 'dist/listing-api'
  await build(outfile)
  console.log(`built ${outfile}`)
}
