/**
 * The decode step: from a status and a body (hostile input) to the outcome, the status meaning
 * and the decoded error code. 5XX is unknown, never a failure (§7.1).
 */
import * as z from '../zod-mini';
import { parseJson } from '../format/json-value';
import { lookupError } from '../catalog/errors';
import { describeStatus } from '../catalog/statuses';
import type { ErrorCodeInfo, HttpStatusInfo, Outcome } from '../catalog/types';
import { parseRetryAfter } from './retry-after';

const ErrorBodySchema = z.looseObject({ code: z.int(), msg: z.optional(z.string()) });

export interface Decoded {
  readonly outcome: Outcome;
  readonly status: number;
  readonly statusInfo: HttpStatusInfo;
  /** The body parsed as JSON, when it is JSON. */
  readonly json?: unknown;
  /** The service's error code and message, when the body carries them. */
  readonly code?: number;
  readonly msg?: string;
  readonly error?: ErrorCodeInfo;
  /** Whole seconds from Retry-After on 418 and 429 (§8 rule 4). */
  readonly retryAfterSeconds?: number;
}

export function decodeResponse(status: number, bodyText: string, retryAfter?: string): Decoded {
  const statusInfo = describeStatus(status);
  const json = parseJson(bodyText);
  // A 2xx body with a code field is data, not an error (e.g. an order record): only an error status's body is read as one.
  const body = status >= 400 ? ErrorBodySchema.safeParse(json) : undefined;
  const carriesError = body?.success === true;
  const code = carriesError ? body.data.code : undefined;
  return {
    outcome: statusInfo.outcome,
    status,
    statusInfo,
    json,
    code,
    msg: carriesError ? body.data.msg : undefined,
    error: code === undefined ? undefined : lookupError(code),
    retryAfterSeconds: statusInfo.retryAfter ? parseRetryAfter(retryAfter) : undefined,
  };
}
