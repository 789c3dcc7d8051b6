// What every command of the binary shares: how it declares its flags and the
// settings it reads, strict parsing (node:util parseArgs: an unknown flag is a
// usage error that names it), and its --help text.
import { parseArgs, type ParseArgsConfig } from 'node:util'
import { ConfigError, loadConfig, SETTINGS, type Config, type SettingName } from '../config'

type Options = NonNullable<ParseArgsConfig['options']>

export interface Command {
  name: string
  /** the line after "listing-api" in the help, e.g. "keys create --name NAME" */
  usage: string
  about: string
  /** the settings (environment variable, or its flag) the command reads; no others are checked */
  reads: readonly SettingName[]
  /** flags of its own, beyond the settings' flags */
  flags?: Record<string, { type: 'string' | 'boolean'; about: string }>
  /** words after the command, e.g. keys' create | list | revoke */
  positionals?: boolean
  run(input: CommandInput): Promise<void> | void
}

interface CommandInput {
  config: Config
  flags: Record<string, string | boolean | undefined>
  positionals: string[]
}

/** Parses a command's arguments; undefined when it was asked for its help. `env`: the environment (config.ts reads the process's when not given). */
export function parseCommandArgs(command: Command, args: string[], env?: Record<string, string | undefined>): CommandInput | undefined {
  const options: Options = { help: { type: 'boolean', short: 'h' } }
  for (const name of command.reads) options[SETTINGS[name].flag] = { type: 'string' }
  for (const [flag, { type }] of Object.entries(command.flags ?? {})) options[flag] = { type }
  let parsed: ReturnType<typeof parseArgs>
  try {
    parsed = parseArgs({ args, options, allowPositionals: command.positionals ?? false, strict: true })
  } catch (error) {
    throw new ConfigError(`${usageProblem(error as Error)}; see "listing-api ${command.name} --help"`)
  }
  const values = parsed.values as Record<string, string | boolean | undefined>
  if (values.help) return undefined
  const settingFlags: Record<string, string | undefined> = {}
  for (const name of command.reads) settingFlags[SETTINGS[name].flag] = values[SETTINGS[name].flag] as string | undefined
  return { config: loadConfig(env, settingFlags, command.reads), flags: values, positionals: parsed.positionals }
}

// parseArgs says, for example: Unknown option '--prot'. To specify a positional argument starting with a '-', …
function usageProblem(error: Error): string {
  const code = (error as { code?: string }).code
  const option = /'([^']+)'/.exec(error.message)?.[1]
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') return `unknown flag ${option}`
  if (code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL') return `unexpected argument "${option}"`
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') return `${error.message.split('.')[0].replace(/^Option /, 'flag ')}`
  return error.message.split('.')[0]
}

export function commandHelp(command: Command): string {
  const own = Object.entries(command.flags ?? {}).map(([flag, { type, about }]) => `  --${flag}${type === 'string' ? ' VALUE' : ''}`.padEnd(28) + about)
  const settings = command.reads.map((name) => {
    const { flag, fallback, about } = SETTINGS[name]
    return `  --${flag}`.padEnd(28) + `${name.padEnd(20)} ${about}${fallback ? ` (default ${fallback})` : ''}`
  })
  return [
    `listing-api ${command.usage}`,
    '',
    command.about,
    ...(own.length ? ['', 'Flags:', ...own] : []),
    ...(settings.length ? ['', 'Settings (the environment variable, or its flag, which wins):', ...settings] : []),
    '',
    '  -h, --help                Show this help',
    '',
  ].join('\n')
}
