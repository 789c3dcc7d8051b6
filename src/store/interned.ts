// One string for each distinct value of a copy in memory (the catalogue, the
// directory): SQLite hands out a new string for every row's value, and 19,000
// products' seven filter values are 133,000 strings of 31 distinct ones. Fewer
// live strings is less heap, and JavaScriptCore lets the heap grow by about its
// own size before it collects (docs/benchmarks.md).

/** A function that returns the first string equal to each it is given (null stays null). */
export function interner(): <T extends string | null>(value: T) => T {
  const seen = new Map<string, string>()
  return <T extends string | null>(value: T): T => {
    if (value === null) return value
    const first = seen.get(value)
    if (first !== undefined) return first as T
    seen.set(value, value)
    return value
  }
}
