// POST /listing/employee — step 1 by employee code (spec 4.3, decisions 16, 18).
import { Elysia, t } from 'elysia'
import { activeEmployee, storesOfEmployee } from '../../store/directory'
import { zeroTotals } from '../../store/listingFigures'
import { examples } from '../examples'
import { apiKeyDescription } from '../auth'
import { readSnapshot } from '../../store/snapshot'
import { apiContext, type ApiDeps } from '../context'
import { answerRows, okHead } from '../answer'
import { ApiError, Message } from '../errors'
import { dateRangeFields, optionalString, dateRangeOf, requiredString } from '../inputs'
import { Int, MetricsObject, okFields, responsesWith404, routeOptions, StoreEntry } from '../responses'
import { storeEntries } from '../storeEntries'

const Body = t.Object({
  ...dateRangeFields,
  emp_code: requiredString('emp_code', 20, Message.empCodeRequired, 'Employee code', 'E1001'),
  api_key: optionalString('api_key', apiKeyDescription),
}, { title: 'EmployeeLookupRequest' })

const Ok = t.Object({
  ...okFields,
  employee: t.Object({ emp_code: t.String(), name: t.String(), sales_off: t.String(), role: t.String() }, { title: 'Employee' }),
  from_date: t.String(),
  to_date: t.String(),
  returned: Int(),
  message: t.String(),
  grand_totals: MetricsObject,
  data: t.Array(t.Composite([t.Object({ sap_code: t.String() }), StoreEntry], { title: 'EmployeeStoreEntry' })),
}, { title: 'EmployeeLookupAnswer' })

export const employeeLookup = (deps: ApiDeps) =>
  new Elysia().use(apiContext(deps)).post(
    '/listing/employee',
    ({ body, integration, request, set }) =>
      readSnapshot(deps.db, () => {
        const range = dateRangeOf(body)
        const employee = activeEmployee(deps.db, body.emp_code)
        if (!employee) throw new ApiError(404, Message.employeeNotFound)
        const grand = zeroTotals()
        const stores = storesOfEmployee(deps.db, body.emp_code)
        const entries = storeEntries<(typeof Ok.static)['data'][number]>(deps, integration.id, stores, range, true, grand)
        return answerRows<typeof Ok.static>({ request, set }, {
          ...okHead(deps.db),
          employee,
          from_date: range.from,
          to_date: range.to,
          returned: stores.length,
          message: stores.length ? '' : Message.noRecord,
          grand_totals: grand,
        }, entries)
      }),
    routeOptions(Body, responsesWith404(Ok, examples['/listing/employee'], { message: 'Employee not found', description: 'No active employee with that code' }), {
      summary: 'Employee lookup (step 1)',
      tag: 'Listing performance',
      description:
        "The visible stores of every dealer an employee looks after, by sap_code then website_id, each with a `storelookup` and the range's listing totals, plus `grand_totals` over them all.",
    }),
  )
