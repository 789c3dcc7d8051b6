// One wrk window over a file of request bodies (bench/rotate.lua: a body a line, sent in turn):
// what bench.ts measures each server with, and profile-serve.ts loads the profiled one with.
export interface WrkResult {
  rps: number
  /** latency percentiles in ms */
  p50: number
  p99: number
  /** answers that were not 2xx or 3xx */
  errors: number
}

/** `seconds` of wrk (2 threads, `connections` connections) at 127.0.0.1:`port`, POSTing the file's bodies to `path` with `key`. */
export async function runWrk(port: number, bodiesFile: string, path: string, scenario: string, key: string, { seconds, connections = 64 }: { seconds: number; connections?: number }): Promise<WrkResult> {
  const args = ['-t2', `-c${connections}`, `-d${seconds}s`, '--timeout', '30s', '--latency', '-s', 'scripts/bench/rotate.lua', `http://127.0.0.1:${port}`, '--', bodiesFile, path, scenario, key]
  const proc = Bun.spawn(['wrk', ...args], { stdout: 'pipe', stderr: 'pipe' })
  const out = await new Response(proc.stdout).text()
  await proc.exited
  const ms = (label: string) => {
    const m = new RegExp(`\\s${label}\\s+([\\d.]+)(us|ms|s)`).exec(out)
    if (!m) return NaN
    return Number(m[1]) * (m[2] === 'us' ? 0.001 : m[2] === 's' ? 1000 : 1)
  }
  const errors = /Non-2xx or 3xx responses: (\d+)/.exec(out)
  return { rps: Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? 0), p50: ms('50%'), p99: ms('99%'), errors: errors ? Number(errors[1]) : 0 }
}
