/**
 * Types of the service catalog: what the spec defines (`docs/service.md`) and what the project
 * assumes where the spec says "not shown" (`docs/service.md, Assumptions`). Every entry says which.
 */

/** Where a fact comes from: the service's own spec, or an assumption from the API family. */
export type Source = 'spec' | 'assumed';

export interface ErrorCodeInfo {
  readonly code: number;
  /** Every meaning the spec gives (§7.2); two where the spec lists two. */
  readonly meanings: readonly string[];
  /** Usual cause, for the codes users meet most. */
  readonly cause?: string;
  /** What to do next. */
  readonly action?: string;
  /** Rough grouping, for help text and ordering. */
  readonly category: ErrorCategory;
}

type ErrorCategory =
  'auth' | 'timing' | 'limits' | 'order' | 'parameters' | 'account' | 'transfer' | 'subaccount' | 'apikey' | 'system';

import type { Outcome } from '../outcome';

export type { Outcome };

export interface HttpStatusInfo {
  /** A status (401) or a class written as in §7.1 ('4XX', '5XX'). */
  readonly status: number | '2XX' | '4XX' | '5XX';
  readonly meaning: string;
  readonly outcome: Outcome;
  /** Whether the response carries Retry-After (§7.1, §8 rule 4). */
  readonly retryAfter?: boolean;
  readonly source: Source;
}

type ParamType =
  | 'symbol'
  | 'symbols'
  | 'enum'
  | 'decimal'
  | 'integer'
  | 'timestampMs'
  | 'durationMs'
  | 'string'
  | 'clientOrderId'
  | 'signature'
  /** A JSON list of order objects (POST /api/v3/batchOrders). */
  | 'orderList'
  /** A listen key of the private WebSocket streams: a credential. */
  | 'listenKey';

export interface EnumValueInfo {
  readonly value: string;
  readonly description: string;
  readonly source: Source;
}

export interface ParamInfo {
  readonly name: string;
  readonly type: ParamType;
  readonly description: string;
  /** Rule in one line, as shown in hover ("upper-case letters", "at most 60000"). */
  readonly rule?: string;
  /** Always required on this endpoint. Requirements that depend on the order type live on the endpoint. */
  readonly required: boolean;
  readonly enumValues?: readonly EnumValueInfo[];
  readonly defaultValue?: string;
  /** Added by the tool when signing (timestamp, signature): never written by hand. */
  readonly addedBySigner?: boolean;
  /** For an orderList: the most items it may hold. */
  readonly maxItems?: number;
  /** For an orderList: the parameters each item takes. */
  readonly itemParams?: readonly ParamInfo[];
  readonly source: Source;
}

export type RateLimitMode = 'ip' | 'uid';
type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** Parameters an order type needs; `anyOf` groups need at least one of their names. */
export interface TypeRequirement {
  readonly type: string;
  readonly required: readonly string[];
  readonly anyOf?: readonly (readonly string[])[];
  readonly source: Source;
}

export interface EndpointInfo {
  readonly method: HttpMethod;
  readonly path: string;
  readonly title: string;
  readonly description: string;
  readonly signed: boolean;
  /** IP mode for endpoints without an access key, UID (account) mode for signed ones (§1, §8). */
  readonly mode: RateLimitMode;
  readonly weight: number;
  readonly weightSource: Source;
  readonly params: readonly ParamInfo[];
  /** For the order endpoints: which parameters each order type needs. */
  readonly typeRequirements?: readonly TypeRequirement[];
  /** At least one of these groups of names must be present (700004 for order query/cancel). */
  readonly anyOf?: readonly (readonly string[])[];
  /**
   * What a key may do with this endpoint, coarsely: `trade` asks before sending (orders, cancels,
   * moving funds). The spec does not name permissions (§5 rule 12).
   */
  readonly permission?: 'read' | 'trade';
  /** The permission by the deployment's own name (`SPOT_DEAL_WRITE`), where its documentation names one. */
  readonly permissionName?: string;
  /** The weight when `param` is not sent (ticker/24hr: 1 with a symbol, 40 without). */
  readonly weightWithout?: { readonly param: string; readonly weight: number };
  /** The counting the documentation labels the endpoint with, when it differs from `mode` (which follows §8: signed ⇒ per account). */
  readonly documentedMode?: 'ip' | 'ip+uid';
  /** Documented, but not as a published endpoint: `hidden` in a commented-out block of the page, `deprecated` (to be withdrawn). */
  readonly docStatus?: 'hidden' | 'deprecated';
  readonly source: Source;
}

/** Paths a deployment does not document, with why, so the check step can say so precisely. */
export interface UndocumentedPaths {
  /** Every path that starts with this. */
  readonly prefix: string;
  /** Why it is not in the catalog, one sentence ("withdrawn from the documentation in 2023"). */
  readonly reason: string;
}
