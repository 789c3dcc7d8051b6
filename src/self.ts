// This program, as the operating system runs it: the compiled binary (bun build
// --compile, whose files live under /$bunfs), or bun with src/main.ts.
import { fileURLToPath } from 'node:url'

export const compiled = import.meta.url.includes('$bunfs')

/**
 * The command line that runs this program again with `args` (serve's scheduled sync runs so).
 * With `runtimeFlags`, from source, bun's own flags (--inspect, say) come along, as when serve
 * runs itself again in place; a compiled binary has none to pass.
 */
export function selfCommand(args: string[], { runtimeFlags = false } = {}): string[] {
  if (compiled) return [process.execPath, ...args]
  return [process.execPath, ...(runtimeFlags ? process.execArgv : []), fileURLToPath(new URL('./main.ts', import.meta.url)), ...args]
}
