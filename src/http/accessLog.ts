// What the access log learns about a request while the app handles it (the
// integration's name, the rows returned), kept beside the Request object.
interface RequestNote {
  integration?: string
  rows?: number
}

const notes = new WeakMap<Request, RequestNote>()

export function noteFor(request: Request): RequestNote {
  let note = notes.get(request)
  if (!note) notes.set(request, (note = {}))
  return note
}
