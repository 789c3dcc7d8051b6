// What the access log and the metrics learn about a request while the app
// handles it (its path and id, the integration's name, the rows returned),
// kept beside the Request object.
interface RequestNote {
  /** the path as routed, without the query string (set first, for every request) */
  path?: string
  requestId?: string
  integration?: string
  rows?: number
}

const notes = new WeakMap<Request, RequestNote>()

export function noteFor(request: Request): RequestNote {
  let note = notes.get(request)
  if (!note) notes.set(request, (note = {}))
  return note
}
