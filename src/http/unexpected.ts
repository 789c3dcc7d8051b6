// An error nobody expected: the client gets 500 Internal Server Error (decision
// 9), the log gets the stack, at most once a minute for each kind of error (its
// name and where it was thrown), so a client that can trigger one cannot flood
// the log; every one is counted in /metrics.
export interface ErrorLog {
  error(message: string, fields?: Record<string, unknown>): void
}

const QUIET_MS = 60_000
const MAX_KINDS = 1000

export class UnexpectedErrors {
  private lastLogged = new Map<string, { at: number; since: number }>()

  constructor(
    private log: ErrorLog,
    private count: (path: string) => void,
    private now: () => number = Date.now,
  ) {}

  report(error: unknown, path: string, requestId: string | undefined): void {
    this.count(path)
    const e = error instanceof Error ? error : new Error(String(error))
    const where = e.stack?.split('\n').find((line) => line.trimStart().startsWith('at '))?.trim() ?? ''
    const kind = `${e.name} ${where}`
    const seen = this.lastLogged.get(kind)
    const now = this.now()
    if (seen && now - seen.at < QUIET_MS) return void seen.since++
    if (this.lastLogged.size >= MAX_KINDS) this.lastLogged.clear()
    this.lastLogged.set(kind, { at: now, since: 0 })
    this.log.error('unhandled error', { request_id: requestId, path, error: e.stack ?? e.message, same_kind_since_last_logged: seen?.since ?? 0 })
  }
}
