// listing-api keys: create, list and revoke the API keys of integrations, in
// the master (or, with --demo, in a demo read store).
import { ConfigError, requireMysqlUrl } from '../config'
import { sha256Hex } from '../http/auth'
import { newApiKey } from '../keys'
import { storeKeyRegistry } from '../store/integrations'
import { masterKeyRegistry } from '../sync/integrations'
import type { Command } from './command'
import { checkWritable } from './process'

const USAGE = 'keys create --name NAME | keys list | keys revoke --id N   [--demo]'

export const keys: Command = {
  name: 'keys',
  usage: USAGE,
  about: "Manage API keys in the master's api_integrations (MYSQL_URL). A new key is printed once; only its SHA-256 is stored. Changes reach the API at the next sync. With --demo, the keys of the demo read store at DB_PATH instead, effective at once.",
  reads: ['MYSQL_URL', 'DB_PATH'],
  positionals: true,
  flags: {
    name: { type: 'string', about: 'create: the integration\'s name, the "user" of its answers' },
    id: { type: 'string', about: 'revoke: the integration\'s id, as list shows it' },
    demo: { type: 'boolean', about: 'the keys of the demo read store at DB_PATH' },
  },
  async run({ config, flags, positionals }) {
    const [action, ...extra] = positionals
    if (!['create', 'list', 'revoke'].includes(action) || extra.length) throw new ConfigError(`usage: listing-api ${USAGE}`)
    const name = flags.name as string | undefined
    const id = Number(flags.id)
    if (action === 'create' && !name) throw new ConfigError('keys create needs --name NAME')
    if (action === 'revoke' && (!Number.isInteger(id) || id < 1)) throw new ConfigError('keys revoke needs --id N')
    const demo = flags.demo === true
    if (demo) checkWritable(config.dbPath)
    const registry = demo ? storeKeyRegistry(config.dbPath) : await masterKeyRegistry(requireMysqlUrl(config))
    const what = demo ? 'demo integration' : 'integration'
    try {
      if (action === 'create') {
        const key = newApiKey()
        const created = await registry.create(name!, sha256Hex(key))
        console.log(`created ${what} ${created} "${name}"; its API key, shown only now:\n${key}`)
      } else if (action === 'list') {
        const rows = await registry.list()
        console.log(['id\tactive\tcreated\t\t\tname', ...rows.map((r) => `${r.id}\t${r.is_active ? 'yes' : 'no'}\t${r.created_at}\t${r.name}`)].join('\n'))
      } else {
        if (!(await registry.revoke(id))) throw new Error(`no integration with id ${id}`)
        console.log(`revoked ${what} ${id}; the key stops working ${registry.takesEffect}`)
      }
    } finally {
      await registry.close()
    }
  },
}
