// The suite's own harness: what a run of it leaves behind on the machine.
import { expect, test } from 'bun:test'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'

// with MYSQL_TEST_URL the runs use a server of the developer's, and start none of their own
test.skipIf(Boolean(process.env.MYSQL_TEST_URL))("a run's own MariaDB server stops once the run has ended", async () => {
  // short: the run's folders nest under it, and MariaDB's socket path must stay under 108 bytes
  const dir = mkdtempSync('/tmp/lh-')
  // a run of one test that uses the master, with the suite's own server (no MYSQL_TEST_URL), its folders under dir
  const run = Bun.spawn([process.execPath, 'test', 'test/sync.test.ts', '-t', 'the first scheduled run waits'], {
    env: { ...process.env, TMPDIR: dir, MYSQL_TEST_URL: '' },
    stdout: 'pipe',
    stderr: 'pipe',
  })
  const servers = () => Bun.spawnSync(['ps', '-eo', 'args']).stdout.toString().split('\n').filter((l) => l.includes('mariadbd') && l.includes(dir))
  try {
    let started = false
    while (run.exitCode === null) {
      started ||= servers().length > 0
      await Bun.sleep(100)
    }
    const output = `${await new Response(run.stdout).text()}${await new Response(run.stderr).text()}`
    expect({ exit: await run.exited, started, output: run.exitCode === 0 ? '' : output }).toEqual({ exit: 0, started: true, output: '' })
    for (let i = 0; i < 50 && servers().length > 0; i++) await Bun.sleep(100) // its watcher looks every 0.5 s
    expect(servers()).toEqual([])
  } finally {
    Bun.spawnSync(['pkill', '-9', '-f', dir]) // should this test fail, it leaves nothing running either
    rmSync(dir, { recursive: true, force: true })
  }
}, 120_000)

// scripts/mutants.ts plants each bug by finding a piece of the source: one that code moved away
// from stopped every later bug of a run unplanted (eight had gone stale before this test)
test("every planted bug's piece of source is still where scripts/mutants.ts finds it, and each bug has a name of its own", async () => {
  const { MUTANTS } = await import('../scripts/mutants')
  const stale = MUTANTS.filter((m) => !readFileSync(m.file, 'utf8').includes(m.find)).map((m) => m.name)
  expect(stale).toEqual([])
  expect(new Set(MUTANTS.map((m) => m.name)).size).toBe(MUTANTS.length)
})
