// Runs before every test file: a time zone that is neither IST nor UTC, so a
// stray Date conversion of a stored IST wall-clock time shows up as a failure.
process.env.TZ = 'America/Sao_Paulo'

// Every temporary folder the tests make (stores, the suite's MariaDB) goes under one folder of
// this run, removed when the run ends, so runs do not pile up stores in /tmp.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const runDir = mkdtempSync(join(tmpdir(), 'listing-test-run-'))
process.env.TMPDIR = runDir

// Processes the tests start (servers, syncs) die with the run, also those of a test that failed
// before it stopped its own: a survivor would hold a CI runner's output open and never end.
import type { Subprocess } from 'bun'
import { afterAll } from 'bun:test'

const children = new Set<Subprocess>()
const spawn = Bun.spawn
Bun.spawn = ((...args: Parameters<typeof Bun.spawn>) => {
  const child = spawn(...args)
  // a detached child looks after itself: the suite's MariaDB watcher (test/mariadb.ts) outlives the
  // run on purpose, and stops its server once the run is gone. Killed here, it left the server behind.
  // (node:child_process's spawn comes through here too, with its options as the one argument.)
  const options = (Array.isArray(args[0]) ? args[1] : args[0]) as { detached?: boolean } | undefined
  if (options?.detached) return child
  children.add(child)
  void child.exited.then(() => children.delete(child))
  return child
}) as typeof Bun.spawn
// bun test runs no 'exit' listeners; an afterAll in this preloaded file runs once, after every file
afterAll(() => {
  for (const child of children) child.kill('SIGKILL')
  rmSync(runDir, { recursive: true, force: true })
})
