// The ceiling, in its own process like the service: a bare Bun.serve that parses
// the request body as the service must, and answers it with the very bytes the
// service answered to that body, held in memory. What any server on this
// machine can do at best with the same requests and the same answers.
//   bun scripts/bench/ceiling.ts <port> <bodies file> <answers file>
// The files hold one request body, and the answer to it, a line each, in the same
// order (a JSON answer has no line break). A body not in the file (a probe) gets the first answer.
// In a mix of endpoints each line of the bodies file is a path, a tab and a body, and a
// request's answer is found by its path and body (one body may go to two endpoints).
import { readFileSync } from 'node:fs'

const [port, bodiesFile, answersFile] = process.argv.slice(2)
const bodies = readFileSync(bodiesFile, 'utf8').split('\n')
const answers = readFileSync(answersFile, 'utf8').split('\n')
if (bodies.length !== answers.length) throw new Error(`${bodies.length} bodies but ${answers.length} answers`)
const encoder = new TextEncoder()
const answerTo = new Map(bodies.map((body, i) => [body, encoder.encode(answers[i])]))
const first = answerTo.get(bodies[0])!
const mixed = bodies[0].includes('\t') // a JSON body holds no raw tab
/** A request URL's path: Bun gives the whole URL, scheme and host first. */
const pathOf = (url: string) => url.slice(url.indexOf('/', 8))
const server = Bun.serve({
  port: Number(port),
  hostname: '127.0.0.1',
  async fetch(request) {
    const body = await request.text()
    JSON.parse(body) // parse the same request
    const key = mixed ? `${pathOf(request.url)}\t${body}` : body
    return new Response(answerTo.get(key) ?? first, { headers: { 'content-type': 'application/json; charset=utf-8' } })
  },
})
console.error(`ceiling on ${server.port}`)
