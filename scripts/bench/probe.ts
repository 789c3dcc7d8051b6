// A light request at a steady pace (one every 20 ms, as a monitoring check or a
// partner's UI would send), with the latency of each: what a client feels while
// something else (a sync) is going on. Also starts and stops `serve` for scripts.
export interface ProbeStats {
  n: number
  p50: number
  p99: number
  max: number
  statuses: Record<number, number>
  /** the same over the requests sent once `since` (probe's) had resolved, when it was given */
  since?: ProbeStats
}

/** The middle value (of an even count, the upper of the two middle ones, as `stats`' p50). */
export const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]

export function stats(times: number[], statuses: number[]): ProbeStats {
  const sorted = [...times].sort((a, b) => a - b)
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN
  const counts: Record<number, number> = {}
  for (const s of statuses) counts[s] = (counts[s] ?? 0) + 1
  return { n: times.length, p50: at(0.5), p99: at(0.99), max: sorted.at(-1) ?? NaN, statuses: counts }
}

/**
 * Sends `body` to `url` every `everyMs` (each on time, whatever the last one took) until `until`
 * resolves. With `since`, the stats also say what the requests sent after it resolved felt (serve's
 * workers ready, say: what came before is a start's, not a sync's).
 */
export async function probe(url: string, headers: Record<string, string>, body: string, until: Promise<unknown>, { everyMs = 20, since }: { everyMs?: number; since?: Promise<unknown> } = {}): Promise<ProbeStats> {
  // each request's time and status, and whether it was sent once `since` had resolved
  const sent: { ms: number; status: number; late: boolean }[] = []
  const pending: Promise<void>[] = []
  let done = false
  let begun = false
  until.then(() => (done = true))
  since?.then(() => (begun = true))
  const start = performance.now()
  for (let i = 0; !done; i++) {
    const late = begun
    pending.push(
      (async () => {
        const t0 = performance.now()
        const res = await fetch(url, { method: 'POST', headers, body })
        await res.arrayBuffer()
        sent.push({ ms: performance.now() - t0, status: res.status, late })
      })(),
    )
    const next = start + (i + 1) * everyMs
    await Bun.sleep(Math.max(0, next - performance.now()))
  }
  await Promise.all(pending)
  const statsOf = (of: typeof sent) => stats(of.map((r) => r.ms), of.map((r) => r.status))
  return { ...statsOf(sent), ...(since ? { since: statsOf(sent.filter((r) => r.late)) } : {}) }
}

export const formatStats = (s: ProbeStats): string =>
  `${s.n} requests, p50 ${s.p50.toFixed(2)} ms, p99 ${s.p99.toFixed(2)} ms, max ${s.max.toFixed(1)} ms, statuses ${JSON.stringify(s.statuses)}${s.since ? `; from the workers' ready: ${formatStats(s.since)}` : ''}`

/** The line serve logs once its workers hold the callers' totals, just before its schedule's first run starts. */
export const READY = /"msg":"ready"/

/** The line serve logs when its scheduled run has ended, either way. */
export const SYNC_ENDED = /"msg":"sync (ok|failed|stopped and rolled back)"/

/** Waits until a server answers at url (it may still be starting), and returns that answer. */
export async function waitForServer(url: string, init?: RequestInit, tries = 100): Promise<Response> {
  for (let i = 0; i < tries; i++) {
    try {
      return await fetch(url, init)
    } catch {
      await Bun.sleep(50)
    }
  }
  throw new Error(`${url} never answered`)
}

/**
 * Waits until every worker of the server at port holds the callers' totals in memory: at production
 * size reading them takes seconds after a worker listens, and a measurement would start meanwhile.
 */
export async function untilCallerTotalsInMemory(port: number, workers: number) {
  for (const started = Date.now(); Date.now() - started < 300_000; await Bun.sleep(500)) {
    const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text()
    if (Number(/^listing_api_caller_totals_in_memory (\S+)$/m.exec(text)?.[1]) >= workers) return
  }
  throw new Error(`the server on port ${port} never held the callers' totals in memory`)
}
/**
 * A child's stdout and stderr gathered line by line as they come: `lines` holds both in the order
 * they came, `stdout` and `stderr` each stream's own; `reading` ends with the child.
 */
export function gatherLines(proc: { stdout: ReadableStream<Uint8Array>; stderr: ReadableStream<Uint8Array> }) {
  const lines: string[] = []
  const stdout: string[] = []
  const stderr: string[] = []
  const gather = async (stream: ReadableStream<Uint8Array>, own: string[]) => {
    const decoder = new TextDecoder()
    let rest = ''
    for await (const chunk of stream) {
      const parts = (rest + decoder.decode(chunk, { stream: true })).split('\n')
      rest = parts.pop()!
      lines.push(...parts)
      own.push(...parts)
    }
  }
  return { lines, stdout, stderr, reading: Promise.all([gather(proc.stdout, stdout), gather(proc.stderr, stderr)]) }
}

/** The first of `lines` that matches, waiting for it while `proc` runs, up to timeoutMs; null if none came. */
export async function firstLine(lines: string[], matches: (line: string) => boolean, proc: { exitCode: number | null }, timeoutMs: number): Promise<string | null> {
  for (const t0 = Date.now(); ; await Bun.sleep(20)) {
    const line = lines.find(matches)
    if (line !== undefined) return line
    if (Date.now() - t0 > timeoutMs || proc.exitCode !== null) return null
  }
}

/** `serve` as its own process, of the tree at `cwd` (this one by default); resolves once it answers /health. */
export async function startServe(args: string[], env: Record<string, string | undefined>, port: number, cwd?: string) {
  const proc = Bun.spawn([process.execPath, 'src/main.ts', 'serve', '--port', String(port), '--host', '127.0.0.1', ...args], { cwd, env: { ...process.env, ...env }, stdout: 'pipe', stderr: 'pipe' })
  const { lines, reading } = gatherLines(proc)
  await waitForServer(`http://127.0.0.1:${port}/health`, undefined, 200)
  return {
    proc,
    lines,
    /** resolves with the first line logged that matches */
    async waitFor(pattern: RegExp, timeoutMs = 3_600_000): Promise<string> {
      const line = await firstLine(lines, (l) => pattern.test(l), proc, timeoutMs)
      if (line === null) throw new Error(`serve never logged ${pattern}`)
      return line
    },
    async stop() {
      proc.kill('SIGTERM')
      await proc.exited
      await reading
    },
  }
}
