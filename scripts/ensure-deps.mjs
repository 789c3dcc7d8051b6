// Runs before `npm run demo` and `npm test`: installs the locked dependencies
// (Bun itself among them, from the npm package `bun`) when they are missing or
// older than package-lock.json, and checks that Bun actually runs: the npm
// package is a stub until its install script (allowed in package.json's
// allowScripts) puts the real binary in place.
import { execFileSync, execSync } from 'node:child_process'
import { existsSync, statSync } from 'node:fs'

const installed = 'node_modules/.package-lock.json'
const bun = 'node_modules/.bin/bun'
const bunRuns = () => {
  try {
    return /^\d+\.\d+\.\d+/.test(execFileSync(bun, ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }))
  } catch {
    return false
  }
}
const stale = !existsSync(installed) || statSync(installed).mtimeMs < statSync('package-lock.json').mtimeMs
if (stale || !bunRuns()) {
  console.error('installing dependencies (npm ci)...')
  execSync('npm ci --no-audit --no-fund', { stdio: ['ignore', 'inherit', 'inherit'] })
  if (!bunRuns()) {
    console.error('listing-api: Bun did not install: node_modules/.bin/bun does not run. Its install script must be allowed (package.json allowScripts) and not turned off by --ignore-scripts.')
    process.exit(1)
  }
}
