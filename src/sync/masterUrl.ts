// MYSQL_URL, read by mysql2's own URL handling: IPv6 hosts in brackets,
// percent-encoded user and password, and any connection option as a query
// parameter, JSON where it is an object (TLS: ?ssl={"rejectUnauthorized":true}).
import mysql, { type ConnectionOptions } from 'mysql2'

// mysql2's own parser and option check (exported by the package, not typed by it)
const { ConnectionConfig } = mysql as unknown as {
  ConnectionConfig: { new (options: ConnectionOptions): unknown; parseUrl(url: string): ConnectionOptions & { port: number } }
}

/** The master's connection options from the URL, or a reason it cannot be used. */
export function masterOptions(url: string): ConnectionOptions {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    throw new Error('must look like mysql://user:pass@host:port/db')
  }
  if (parsed.protocol !== 'mysql:') throw new Error('must look like mysql://user:pass@host:port/db')
  const options = ConnectionConfig.parseUrl(url)
  if (Number.isNaN(options.port)) delete (options as { port?: number }).port
  // mysql2 only warns about an option it does not know; a mistyped ?ssl would then quietly mean no TLS
  const unknown: string[] = []
  const warn = console.error
  console.error = (message: unknown) => {
    const m = /invalid configuration option passed to Connection: (\S+?)\./.exec(String(message))
    if (m) unknown.push(m[1])
    else warn(message)
  }
  try {
    new ConnectionConfig(structuredClone(options)) // a copy: it fills in defaults as it checks
  } finally {
    console.error = warn
  }
  if (unknown.length) throw new Error(`has an option mysql2 does not know: ${unknown.join(', ')}`)
  return options
}

/** Why MYSQL_URL cannot be used, or undefined when it can (config.ts). */
export function masterUrlProblem(url: string): string | undefined {
  try {
    masterOptions(url)
    return undefined
  } catch (error) {
    return (error as Error).message
  }
}
