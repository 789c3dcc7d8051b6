// Bound parameters, typed in the SQL. When SQLite's planner (3.54, as built
// into Bun) looks at a parameter's value while it plans, as it does for a
// range on an index column after an equality or for a filter under a partial
// index, it marks the statement to be prepared again whenever that parameter
// is bound: each run then pays a new plan, 5 to 7 µs instead of about 1 µs
// (measured on call_days, metrics and products). It does so for LIMIT and
// OFFSET as well: a page of calls with `LIMIT ? OFFSET ?` took 11 µs for one
// row against 5 µs with them typed. Inside CAST the value is opaque to the
// planner and the plan is kept; the index is used the same way.
export const int = (n?: number) => `CAST(?${n ?? ''} AS INTEGER)`
export const text = (n?: number) => `CAST(?${n ?? ''} AS TEXT)`
