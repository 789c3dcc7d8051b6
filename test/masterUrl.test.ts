// MYSQL_URL as mysql2 itself reads it: IPv6 hosts, encoded credentials, and
// connection options such as TLS as query parameters; what mysql2 would only
// warn about is refused, so a mistyped ?ssl cannot quietly mean no TLS.
import { describe, expect, test } from 'bun:test'
import { loadConfig } from '../src/config'
import { masterOptions } from '../src/sync/masterUrl'

describe('MYSQL_URL', () => {
  test('an IPv6 host in brackets, a port, a database and encoded credentials', () => {
    expect(masterOptions('mysql://u%40corp:p%2Fss%3Aword@[::1]:3307/master%20db')).toMatchObject({ host: '::1', port: 3307, user: 'u@corp', password: 'p/ss:word', database: 'master db' })
    expect(masterOptions('mysql://reader@db.example/master')).toMatchObject({ host: 'db.example', user: 'reader', database: 'master' })
    expect(masterOptions('mysql://reader@db.example/master').port).toBeUndefined() // mysql2 then uses 3306
  })

  test('TLS and other connection options as query parameters, JSON where they are objects', () => {
    expect(masterOptions('mysql://r:s@db/m?ssl={"rejectUnauthorized":true}').ssl).toEqual({ rejectUnauthorized: true })
    expect(masterOptions('mysql://r:s@db/m?ssl=%7B%22ca%22%3A%22PEM%22%7D').ssl).toEqual({ ca: 'PEM' })
    expect(masterOptions('mysql://r:s@db/m?ssl=Amazon%20RDS').ssl).toBe('Amazon RDS')
    expect(masterOptions('mysql://r:s@db/m?connectTimeout=3000&compress=true')).toMatchObject({ connectTimeout: 3000, compress: true })
  })

  test.each([
    ['mysql://r:s@db/m?sll={"rejectUnauthorized":true}', 'MYSQL_URL has an option mysql2 does not know: sll'],
    ['postgres://r:s@db/m', 'MYSQL_URL must look like mysql://user:pass@host:port/db'],
    ['db.example:3306', 'MYSQL_URL must look like mysql://user:pass@host:port/db'],
  ])('%s is refused at start-up: %s', (url, message) => {
    expect(() => loadConfig({ MYSQL_URL: url })).toThrow(message)
  })
})
