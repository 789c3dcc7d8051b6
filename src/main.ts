// The command line: listing-api <command> [flags]. Each command lives in
// src/cli/ with the settings it reads. Exit codes: 0 success, 2 a usage or
// configuration error, 1 a failure at run time.
import { version } from '../package.json'
import { commandHelp, parseCommandArgs, type Command } from './cli/command'
import { demo } from './cli/demo'
import { keys } from './cli/keys'
import { migrate } from './cli/migrate'
import { serve } from './cli/serve'
import { sync } from './cli/sync'
import { ConfigError } from './config'

const COMMANDS: Record<string, Command> = { serve, sync, migrate, demo, keys }

function overview(): string {
  return `listing-api ${version}: the listing performance, call history and product filter API

Usage: listing-api <command> [flags]

Commands:
${Object.values(COMMANDS).map((c) => `  ${c.name.padEnd(9)} ${c.about.split('. ')[0].replace(/\.$/, '')}.`).join('\n')}
  version   Print the version.
  help      Show this help, or one command's: listing-api help <command>, listing-api <command> --help.

Settings come from environment variables; a flag of the same name wins (listing-api <command> --help lists them).
Exit codes: 0 success, 2 usage or configuration error, 1 failure while running.
`
}

async function main(args: string[]): Promise<void> {
  const [name, ...rest] = args
  if (name === undefined || name === 'help' || name === '-h' || name === '--help') {
    const about = rest[0] === undefined ? undefined : COMMANDS[rest[0]]
    if (rest[0] !== undefined && !about) throw new ConfigError(`unknown command "${rest[0]}"; run "listing-api help"`)
    return void console.log(about ? commandHelp(about) : overview())
  }
  if (name === 'version' || name === '--version') return void console.log(version)
  const command = COMMANDS[name]
  if (!command) throw new ConfigError(`unknown command "${name}"; run "listing-api help"`)
  const input = parseCommandArgs(command, rest)
  if (!input) return void console.log(commandHelp(command))
  await command.run(input)
}

main(process.argv.slice(2)).catch((error) => {
  // one line, no stack trace: operators read logs, not source
  console.error(`listing-api: ${error instanceof Error ? error.message : String(error)}`)
  process.exit(error instanceof ConfigError ? 2 : 1)
})
