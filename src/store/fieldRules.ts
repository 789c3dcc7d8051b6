// The contract's rules for field values, each defined once (master-contract
// §2) and used wherever the store derives or shapes a value: blank text, minutes
// from seconds, the total of searches.

/** SQL: the column holds nothing but spaces, tabs or line breaks (or is NULL). */
export const isBlank = (column: string) => `trim(coalesce(${column}, ''), ' ' || char(9, 10, 13)) = ''`
/** The same rule in JS, for a value in hand. */
export const isShownBlank = (value: unknown) =>
  value === null || value === '' || (typeof value === 'string' && value.charCodeAt(0) <= 32 && /^[ \t\n\r]*$/.test(value))

/**
 * Minutes from seconds, rounded half-up to 2 decimals, in whole numbers so no
 * float creeps in: hundredths = floor((seconds × 100 + 30) / 60). A call's
 * duration, and a sum of seconds rounded once (decision 22).
 */
export const minutesOf = (seconds: number) => Math.floor((seconds * 100 + 30) / 60) / 100

/** The four impression columns whose sum is total_search (spec 2.5). */
const IMPRESSIONS = ['desktop_search_impressions', 'mobile_search_impressions', 'desktop_maps_impressions', 'mobile_maps_impressions'] as const
export const TOTAL_SEARCH_SQL = IMPRESSIONS.join(' + ')
export const totalSearchOf = (row: Record<(typeof IMPRESSIONS)[number], number>) => IMPRESSIONS.reduce((sum, c) => sum + row[c], 0)
