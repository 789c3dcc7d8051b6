// Texts that repeat from call to call (did_number, event_type), stored once in
// call_texts and held by calls as ids. Under load each string a page's rows make
// costs more than its bytes: its memory was freed by a collection long after the
// answer that made it and is cold when the next answer's strings take it, so a
// row's strings were the largest cost of the row-heavy answers (docs/benchmarks.md,
// fifteenth session). Committed rows of call_texts are only ever added, so an id
// names one text for the life of the store: sync finds or adds a text's id, and a
// serving worker keeps every text it has read. A run that rolls back takes its ids
// back, and the next run gives them to other texts: only the connection that wrote
// them could have read them, so a connection that writes texts keeps none.
import type { Database, Statement } from 'bun:sqlite'
import type { Store } from './open'

/** A sync run's text → id, adding the texts it has not seen (in the run's transaction). */
export class CallTextIds {
  private readonly ids = new Map<string, number>()
  private readonly add: Statement<{ id: number }, [string]>

  constructor(client: Database) {
    writers.add(client)
    for (const r of client.query<{ id: number; text: string }, []>('SELECT id, text FROM call_texts').all()) this.ids.set(r.text, r.id)
    this.add = client.query<{ id: number }, [string]>('INSERT INTO call_texts (text) VALUES (?) RETURNING id')
  }

  idOf(text: string): number {
    let id = this.ids.get(text)
    if (id === undefined) this.ids.set(text, (id = this.add.get(text)!.id))
    return id
  }

  // A full load looks up two texts a call, 40 million at production size, each a string the
  // master's rows just made: hashed, then found among 100,000 texts. Found again instead where
  // the same text last was, compared as a string: did_number in its store's slot (a store keeps
  // its number), event_type in a short list (a handful of texts).
  private readonly byStore = new Array<string | null>(STORE_SLOTS).fill(null) // null: no text is null
  private readonly byStoreIds = new Int32Array(STORE_SLOTS)
  private readonly few: string[] = []
  private readonly fewIds: number[] = []

  /** A text that goes with a store (its did_number): found again in the store's slot. */
  idOfStore(text: string, websiteId: number): number {
    const slot = websiteId & (STORE_SLOTS - 1)
    if (this.byStore[slot] === text) return this.byStoreIds[slot]
    const id = this.idOf(text)
    this.byStore[slot] = text
    this.byStoreIds[slot] = id
    return id
  }

  /** One of a handful of texts (an event_type): found again in a short list. */
  idOfFew(text: string): number {
    for (let i = 0; i < this.few.length; i++) if (this.few[i] === text) return this.fewIds[i]
    const id = this.idOf(text)
    if (this.few.length < FEW) {
      this.few.push(text)
      this.fewIds.push(id)
    }
    return id
  }
}

const STORE_SLOTS = 1 << 16
const FEW = 8

/** Connections that have written call_texts (a sync's; in tests, the one that loads and serves). */
const writers = new WeakSet<Database>()
/** A serving connection's texts by id. */
const texts = new WeakMap<Database, string[]>()
const NEWER = 'SELECT id, text FROM call_texts WHERE id >= ? ORDER BY id'
const ONE = 'SELECT text FROM call_texts WHERE id = ?'

/**
 * A connection's id → text. A serving connection keeps the texts it has read (a few
 * thousand at production size: one did_number a store and a handful of event types);
 * an id not read yet reads the texts added since, in the request's snapshot, where
 * every id its calls hold is. A connection that has written texts reads each one.
 */
export function callTexts(db: Store): (id: number) => string {
  const client = db.$client
  if (writers.has(client)) {
    const one = client.query<{ text: string }, [number]>(ONE)
    return (id) => one.get(id)?.text ?? missing(id)
  }
  let known = texts.get(client)
  if (known === undefined) texts.set(client, (known = []))
  const all = known
  return (id) => all[id] ?? readSince(client, all, id)
}

function readSince(client: Database, all: string[], id: number): string {
  for (const r of client.query<{ id: number; text: string }, [number]>(NEWER).all(Math.min(id, all.length))) all[r.id] = r.text
  return all[id] ?? missing(id)
}

function missing(id: number): never {
  throw new Error(`call_texts holds no text ${id}`)
}
