// The scripts' own flags, parsed leniently: `--name value` and `--name=value`;
// a flag with no value is "true". (The binary parses its commands strictly: src/cli/command.ts.)
export function parseFlags(argv: string[]): { flags: Map<string, string>; rest: string[] } {
  const flags = new Map<string, string>()
  const rest: string[] = []
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]
    if (!arg.startsWith('--')) {
      rest.push(arg)
      continue
    }
    const eq = arg.indexOf('=')
    if (eq > 0) flags.set(arg.slice(0, eq), arg.slice(eq + 1))
    else if (i + 1 < argv.length && !argv[i + 1].startsWith('--')) flags.set(arg, argv[++i])
    else flags.set(arg, 'true')
  }
  return { flags, rest }
}

/**
 * `--only`'s choice of names: a name is chosen when it holds one of the texts given, '|'
 * between them (the names hold commas); every name when the flag is absent.
 */
export function onlyNamed(flags: Map<string, string>): (name: string) => boolean {
  const texts = flags.get('--only')?.split('|')
  return (name) => !texts || texts.some((t) => name.includes(t))
}
