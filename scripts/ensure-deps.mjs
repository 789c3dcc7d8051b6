// Runs before `npm run demo` and `npm test`: installs the locked dependencies
// (Bun itself among them, from the npm package `bun`) when they are missing or
// older than package-lock.json, so a fresh clone needs only Node and npm.
import { execSync } from 'node:child_process'
import { existsSync, statSync } from 'node:fs'

const installed = 'node_modules/.package-lock.json'
const stale = !existsSync(installed) || !existsSync('node_modules/.bin/bun') || statSync(installed).mtimeMs < statSync('package-lock.json').mtimeMs
if (stale) {
  console.error('installing dependencies (npm ci)...')
  execSync('npm ci --no-audit --no-fund', { stdio: ['ignore', 'inherit', 'inherit'] })
}
