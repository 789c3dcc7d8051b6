// JSON lines to stdout (stderr for warnings and errors), filtered by LOG_LEVEL.
// Callers pass fields, never raw headers or bodies: keys must not reach a log.
export type Level = 'debug' | 'info' | 'warn' | 'error'
const RANK: Record<Level, number> = { debug: 10, info: 20, warn: 30, error: 40 }

export interface Logger {
  /** whether lines of this level are written: check before building costly fields */
  enabled(level: Level): boolean
  debug(msg: string, fields?: Record<string, unknown>): void
  info(msg: string, fields?: Record<string, unknown>): void
  warn(msg: string, fields?: Record<string, unknown>): void
  error(msg: string, fields?: Record<string, unknown>): void
}

export function createLogger(level: Level, write: (line: string, level: Level) => void = defaultWrite): Logger {
  const at = (l: Level) => (msg: string, fields?: Record<string, unknown>) => {
    if (RANK[l] < RANK[level]) return
    write(JSON.stringify({ time: new Date().toISOString(), level: l, msg, ...fields }), l)
  }
  return { enabled: (l) => RANK[l] >= RANK[level], debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') }
}

function defaultWrite(line: string, level: Level): void {
  if (RANK[level] >= RANK.warn) process.stderr.write(`${line}\n`)
  else process.stdout.write(`${line}\n`)
}
