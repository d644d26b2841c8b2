import type { HttpStatusInfo, Outcome } from './types';

/** The §7.1 rows, plus an assumed 2XX row. Specific statuses before their class. */
export const HTTP_STATUSES: readonly HttpStatusInfo[] = [
  { status: '2XX', meaning: 'Request accepted', outcome: 'ok', source: 'assumed' },
  { status: '4XX', meaning: "Malformed request; the fault is the sender's", outcome: 'rejected', source: 'spec' },
  { status: 401, meaning: 'Authentication or permission error', outcome: 'rejected', source: 'spec' },
  { status: 403, meaning: 'The web application firewall limit was violated', outcome: 'rejected', source: 'spec' },
  {
    status: 418,
    meaning:
      'The IP is banned because of repeated rate limit violations; Retry-After gives the seconds until the ban ends',
    outcome: 'rejected',
    retryAfter: true,
    source: 'spec',
  },
  {
    status: 429,
    meaning: 'Request rate limit exceeded; stop sending and wait the Retry-After seconds to avoid an IP ban',
    outcome: 'rejected',
    retryAfter: true,
    source: 'spec',
  },
  {
    status: '5XX',
    meaning:
      'Internal error of the service; the outcome of the operation is unknown and may have succeeded: check before retrying, never treat it as a failure',
    outcome: 'unknown',
    source: 'spec',
  },
];

/** The meanings of the statuses outside §7.1's rows (assumed): shown translated, like the rows'. */
export const OTHER_STATUS_MEANINGS = {
  redirect: 'Redirect: the service does not redirect; check the base URL',
  informational: 'Informational status, not a final answer; the outcome of the operation is unknown',
  invalid:
    'Not a valid HTTP status; the outcome of the operation is unknown and may have succeeded: check before retrying',
} as const;

const BY_STATUS: ReadonlyMap<HttpStatusInfo['status'], HttpStatusInfo> = new Map(
  HTTP_STATUSES.map((info) => [info.status, info]),
);

function classRow(status: '2XX' | '4XX' | '5XX'): HttpStatusInfo {
  const row = BY_STATUS.get(status);
  if (row === undefined) throw new Error(`HTTP_STATUSES lacks the ${status} row`);
  return row;
}

/** The specific §7.1 row, else the class row, else an assumed entry for classes the spec does not cover. */
export function describeStatus(status: number): HttpStatusInfo {
  const specific = BY_STATUS.get(status);
  if (specific !== undefined) return specific;
  if (Number.isInteger(status)) {
    if (status >= 200 && status <= 299) return classRow('2XX');
    if (status >= 400 && status <= 499) return classRow('4XX');
    if (status >= 500 && status <= 599) return classRow('5XX');
    if (status >= 300 && status <= 399) {
      return {
        status,
        meaning: OTHER_STATUS_MEANINGS.redirect,
        outcome: 'rejected',
        source: 'assumed',
      };
    }
    if (status >= 100 && status <= 199) {
      return {
        status,
        meaning: OTHER_STATUS_MEANINGS.informational,
        outcome: 'unknown',
        source: 'assumed',
      };
    }
  }
  // Outside 100-599 nothing is known about the request, so the outcome cannot be ruled out.
  return {
    status,
    meaning: OTHER_STATUS_MEANINGS.invalid,
    outcome: 'unknown',
    source: 'assumed',
  };
}

export function outcomeOfStatus(status: number): Outcome {
  return describeStatus(status).outcome;
}
