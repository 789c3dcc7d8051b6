// bun run fuzz: the hostile-request properties of test/fuzz.test.ts, for a long
// run (FUZZ_RUNS, default 50,000 requests in process and a quarter as many over
// HTTP). Any failure prints the smallest request that shows it.
//   bun run fuzz [-- --runs N]
const at = process.argv.indexOf('--runs')
const runs = at > 0 ? process.argv[at + 1] : (process.env.FUZZ_RUNS ?? '50000')
const run = Bun.spawn([process.execPath, 'test', 'test/fuzz.test.ts', '--timeout', '0'], { env: { ...process.env, FUZZ_RUNS: runs }, stdout: 'inherit', stderr: 'inherit' })
process.exit(await run.exited)
export {}
