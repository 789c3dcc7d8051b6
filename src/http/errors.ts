// The failure envelope and the spec's error messages, in one place. Every
// failure leaves the service as { code, status: false, message } with the HTTP
// status equal to code (decision 1); nothing from Elysia reaches a client.

export const Message = {
  invalidJson: 'Invalid JSON',
  datesRequired: 'from_date and to_date are required',
  dateFormat: 'Dates must be in YYYY-MM-DD format',
  dateOrder: 'from_date cannot be later than to_date',
  sapCodeRequired: 'sap_code is required',
  empCodeRequired: 'emp_code is required',
  storelookupRequired: 'storelookup is required',
  invalidStorelookup: 'Invalid storelookup',
  invalidSubstatus: 'Invalid substatus',
  invalidCursor: 'Invalid cursor',
  apiKeyMissing: 'API key missing',
  invalidApiKey: 'Invalid API key',
  employeeNotFound: 'Employee not found',
  sapCodeNotFound: 'SAP code not found',
  noRecord: 'No record found',
  pageOutOfRange: 'Page out of range',
  notFound: 'Not found',
  onlyPost: 'Only POST allowed',
  payloadTooLarge: 'Payload too large',
  tooManyRequests: 'Too many requests',
  internal: 'Internal Server Error',
} as const

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers?: Record<string, string>,
  ) {
    super(message)
  }
}

export const JSON_TYPE = 'application/json; charset=utf-8'

function jsonResponse(body: unknown, status = 200, headers?: Record<string, string>): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': JSON_TYPE, ...headers } })
}

export function failure(status: number, message: string, headers?: Record<string, string>): Response {
  return jsonResponse({ code: status, status: false, message }, status, headers)
}
