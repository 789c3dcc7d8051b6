// How far a serving process's JavaScript heap may grow between collections.
// JavaScriptCore lets a heap grow past what it held after a collection by a factor
// Bun sets (heapGrowthMaxIncrease 2.0): on a machine of 16 GB or more the heap may
// reach about three times its live size before the next full collection
// (JavaScriptCore's Heap.cpp, proportionalHeapSize: 2·e^(−heap/RAM) + 1). A serving
// process holds about 60 MB live (the callers' base, the small tables' copies), and
// the garbage its answers leave made most of its peak. At 0.75 the heap grows to
// about 1.75 times its live size: at scale 1, one worker's peak over the bench's
// scenarios 245 MB against 300–308, for about 2.5% more of a core spent collecting,
// within the spread of every scenario's req/s. At 0.5 and below every young
// collection is followed by a full one (JavaScriptCore starts a full collection when
// less than a third of the allowance is left), so the factor stays above that
// (docs/benchmarks.md).
//
// JavaScriptCore reads its options once, as the process starts, from BUN_JSC_*
// variables: serve runs itself again with the variable set (execve: the same process,
// so systemd and anything that watches its id see one). An operator who sets the
// variable keeps their value, and nothing runs twice.
import { selfCommand } from './self'

export const HEAP_GROWTH_VARIABLE = 'BUN_JSC_heapGrowthMaxIncrease'
export const SERVE_HEAP_GROWTH = '0.75'
/** Set beside the variable when serve set it, so that the processes serve starts (a scheduled sync) do not inherit it. */
export const HEAP_GROWTH_BY_SERVE = 'LISTING_API_SERVE_HEAP_GROWTH'

/**
 * The environment that sets the serving heap growth, for serve to run itself again with;
 * null when the environment already says how far the heap may grow.
 */
export function withServingHeapGrowth(env: Record<string, string | undefined>): Record<string, string | undefined> | null {
  if (env[HEAP_GROWTH_VARIABLE] !== undefined) return null
  return { ...env, [HEAP_GROWTH_VARIABLE]: SERVE_HEAP_GROWTH, [HEAP_GROWTH_BY_SERVE]: '1' }
}

/** Runs this program again in this process (execve) with `args` and `env`: returns only where a runtime cannot. */
export function runAgain(args: string[], env: Record<string, string | undefined>): void {
  if (typeof process.execve !== 'function') return
  const argv = selfCommand(args, { runtimeFlags: true })
  process.execve(argv[0], argv, env)
}

/** A child's environment without the heap growth serve set for itself (an operator's own setting is passed on). */
export function withoutServeHeapGrowth(env: Record<string, string | undefined>): Record<string, string | undefined> {
  if (env[HEAP_GROWTH_BY_SERVE] === undefined) return env
  const { [HEAP_GROWTH_VARIABLE]: _growth, [HEAP_GROWTH_BY_SERVE]: _mark, ...rest } = env
  return rest
}
