// The systemd units an office installs: sandboxed (systemd-analyze security
// rates them 2.0 or better, without MemoryDenyWriteExecute, which Bun's JIT
// cannot live with), no restart loop on a configuration error, no no-op settings.
import { describe, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'

const exposure = (unit: string) => {
  const run = Bun.spawnSync(['systemd-analyze', 'security', '--offline=true', unit], { stdout: 'pipe', stderr: 'pipe', timeout: 60_000 })
  const m = /Overall exposure level for \S+: (\d+\.\d+)/.exec(run.stdout.toString() + run.stderr.toString())
  if (!m) throw new Error(`systemd-analyze gave no rating for ${unit}: ${run.stderr.toString()}`)
  return Number(m[1])
}

describe('systemd units', () => {
  test.each(['scripts/listing-api.service', 'scripts/listing-api-sync.service'])('%s is rated 2.0 or better, and leaves Bun its JIT', (unit) => {
    expect(exposure(unit)).toBeLessThanOrEqual(2.0)
    const text = readFileSync(unit, 'utf8')
    expect(text).not.toMatch(/^MemoryDenyWriteExecute=/m)
    expect(text).toMatch(/^StateDirectory=listing-api$/m) // the one place it writes
  })

  test('serve restarts after a failure, not after a configuration error (exit code 2)', () => {
    const text = readFileSync('scripts/listing-api.service', 'utf8')
    expect(text).toMatch(/^Restart=on-failure$/m)
    expect(text).toMatch(/^RestartPreventExitStatus=2$/m)
  })

  test('the timer has no Persistent=, which does nothing without OnCalendar=', () => {
    const text = readFileSync('scripts/listing-api-sync.timer', 'utf8')
    expect(text).not.toMatch(/^Persistent=/m)
    expect(text).toMatch(/^OnUnitInactiveSec=15min$/m)
  })
})
