// listing-api migrate: create or upgrade the read store, then exit.
import { closeStore, openStore } from '../store/open'
import type { Command } from './command'
import { checkWritable } from './process'

export const migrate: Command = {
  name: 'migrate',
  usage: 'migrate',
  about: 'Create or upgrade the read store at DB_PATH, then exit.',
  reads: ['DB_PATH'],
  run({ config }) {
    checkWritable(config.dbPath)
    closeStore(openStore(config.dbPath))
    console.log(`read store at ${config.dbPath} is up to date`)
  },
}
