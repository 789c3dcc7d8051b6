// The ceiling, in its own process like the service: a bare Bun.serve that parses
// the request body as the service must, and answers with one scenario's response
// bytes, read from a file. What any server on this machine can do at best.
//   bun scripts/bench/ceiling.ts <port> <response file>
import { readFileSync } from 'node:fs'

const [port, file] = process.argv.slice(2)
const bytes = readFileSync(file)
const server = Bun.serve({
  port: Number(port),
  hostname: '127.0.0.1',
  async fetch(request) {
    await request.json() // parse the same request
    return new Response(bytes, { headers: { 'content-type': 'application/json; charset=utf-8' } })
  },
})
console.error(`ceiling on ${server.port}`)
