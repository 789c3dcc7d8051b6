// The API's routes, in the spec's order (405 handling, metrics labels and tests loop over them).
export const API_PATHS = [
  '/listing/listingtiles',
  '/listing/dealer',
  '/listing/employee',
  '/listing/daywise',
  '/listing/calls',
  '/products/filter',
  '/listing/changes',
] as const
