// Runs before every test file: a time zone that is neither IST nor UTC, so a
// stray Date conversion of a stored IST wall-clock time shows up as a failure.
process.env.TZ = 'America/Sao_Paulo'

// Processes the tests start (servers, syncs) die with the run, also those of a test that failed
// before it stopped its own: a survivor would hold a CI runner's output open and never end.
import type { Subprocess } from 'bun'

const children = new Set<Subprocess>()
const spawn = Bun.spawn
Bun.spawn = ((...args: Parameters<typeof Bun.spawn>) => {
  const child = spawn(...args)
  children.add(child)
  void child.exited.then(() => children.delete(child))
  return child
}) as typeof Bun.spawn
process.on('exit', () => {
  for (const child of children) child.kill('SIGKILL')
})
