/**
 * The control surface under /_sandbox/, for tests and for users who want to see failure modes.
 * It answers loopback clients only, is never rate limited, and its calls are not logged.
 */
import * as z from '../core/zod-mini';
import { KNOWN_PATHS } from '../core/catalog/endpoints';
import { fail, ok, type Reply } from './replies';

export const CONTROL_PREFIX = '/_sandbox';

/** An IPv4-mapped IPv6 address (::ffff:127.0.0.1) written as IPv4; any other address as it is. */
export function plainAddress(address: string): string {
  return address.startsWith('::ffff:') ? address.slice(7) : address;
}

/** 127.0.0.0/8 and ::1, also written as IPv4-mapped IPv6 (::ffff:127.0.0.1). */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (address === undefined) return false;
  const a = plainAddress(address);
  return a === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(a);
}

export interface LogEntry {
  readonly method: string;
  /** The path without the query string. */
  readonly path: string;
  readonly status: number;
  /** The error code of the body; null for a success. */
  readonly code: number | null;
  /** Server time (ms, with the clock offset) when the request arrived. */
  readonly time: number;
}

export interface Fault {
  readonly status: number;
  readonly count: number;
  readonly path?: string;
}

/** What the control surface acts on; the server implements it. */
export interface ControlTarget {
  reset(): void;
  setFault(fault: Fault): void;
  setClockOffset(ms: number): void;
  setLatency(ms: number): void;
  serverTime(): number;
  requests(): readonly LogEntry[];
  /** Drops every WebSocket connection with no close frame; returns how many. */
  dropWebSockets(): number;
  /** Stops (true) or resumes (false) the pushes of every stream. */
  pauseWebSockets(paused: boolean): void;
  /** Sends one text frame that is not valid JSON to every connection; returns how many. */
  sendMalformedFrame(): number;
  webSockets(): WebSocketState;
}

export interface WebSocketState {
  /** Open connections (those being closed by the sandbox not counted). */
  readonly connections: number;
  /** Subscriptions over all connections. */
  readonly subscriptions: number;
  readonly paused: boolean;
}

const MAX_OFFSET_MS = 365 * 24 * 60 * 60 * 1000;

const FaultBodySchema = z.strictObject({
  status: z.int().check(z.gte(500, 'status must be a 5xx status'), z.lte(599, 'status must be a 5xx status')),
  count: z._default(z.int().check(z.gte(0), z.lte(1_000_000)), 1),
  path: z.optional(
    z
      .string()
      .check(z.refine((p) => KNOWN_PATHS.includes(p), { message: `path must be one of ${KNOWN_PATHS.join(', ')}` })),
  ),
});
const ClockBodySchema = z.strictObject({ offsetMs: z.int().check(z.gte(-MAX_OFFSET_MS), z.lte(MAX_OFFSET_MS)) });
const LatencyBodySchema = z.strictObject({ ms: z.int().check(z.gte(0), z.lte(60_000)) });
/** The body of the routes that take none: `{}` or nothing. */
const ResetBodySchema = z.strictObject({});

type Route = { readonly method: 'GET' | 'POST'; readonly run: (target: ControlTarget, body: unknown) => Reply };

function invalid(message: string): Reply {
  return fail(730002, message);
}

function withBody<T>(schema: z.ZodMiniType<T>, act: (target: ControlTarget, value: T) => Reply): Route['run'] {
  return (target, body) => {
    const r = schema.safeParse(body);
    if (!r.success) {
      const issue = r.error.issues[0];
      const where = issue !== undefined && issue.path.length > 0 ? issue.path.join('.') + ': ' : '';
      return invalid(where + (issue?.message ?? 'invalid body'));
    }
    return act(target, r.data);
  };
}

/** POST /_sandbox/ws/pause (true) or /ws/resume (false). */
function pauseRoute(paused: boolean): Route {
  return {
    method: 'POST',
    run: withBody(ResetBodySchema, (target) => {
      target.pauseWebSockets(paused);
      return ok(JSON.stringify({ paused }));
    }),
  };
}

const ROUTES: ReadonlyMap<string, Route> = new Map<string, Route>([
  [
    '',
    {
      method: 'GET',
      run: () =>
        ok(
          JSON.stringify({
            control: {
              'POST /_sandbox/reset':
                'orders, balances, counters, bans (REST and WebSocket), faults, clock offset, latency, listen keys, paused pushes and the request log back to start; WebSocket connections dropped',
              'POST /_sandbox/fault':
                '{"status": 503, "count": 1, "path": "/api/v3/order"}: the next count API requests (to path) are carried out, then answered with status',
              'POST /_sandbox/clock':
                '{"offsetMs": N}: the server clock runs N ms off (timestamps are checked against it; rate-limit windows and bans run on it; WebSocket idle and lifetime closes it passes happen at once)',
              'POST /_sandbox/latency': '{"ms": N}: every API answer waits N ms',
              'GET /_sandbox/requests':
                'what reached the API (WebSocket upgrades included): method, path, status, code, time',
              'GET /_sandbox/ws': 'the WebSocket side now: open connections, subscriptions, whether pushes are paused',
              'POST /_sandbox/ws/drop': 'every WebSocket connection dropped with no close frame (clients see 1006)',
              'POST /_sandbox/ws/pause':
                'pushes stop (replies to PING and SUBSCRIPTION still go); those due meanwhile are lost',
              'POST /_sandbox/ws/resume': 'pushes go out again',
              'POST /_sandbox/ws/malformed': 'one text frame that is not valid JSON sent to every WebSocket connection',
            },
          }),
        ),
    },
  ],
  [
    '/reset',
    {
      method: 'POST',
      run: withBody(ResetBodySchema, (target) => {
        target.reset();
        return ok('{"reset":true}');
      }),
    },
  ],
  [
    '/fault',
    {
      method: 'POST',
      run: withBody(FaultBodySchema, (target, f) => {
        const fault: Fault =
          f.path === undefined
            ? { status: f.status, count: f.count }
            : { status: f.status, count: f.count, path: f.path };
        target.setFault(fault);
        return ok(JSON.stringify(fault));
      }),
    },
  ],
  [
    '/clock',
    {
      method: 'POST',
      run: withBody(ClockBodySchema, (target, c) => {
        target.setClockOffset(c.offsetMs);
        return ok(JSON.stringify({ offsetMs: c.offsetMs, serverTime: target.serverTime() }));
      }),
    },
  ],
  [
    '/latency',
    {
      method: 'POST',
      run: withBody(LatencyBodySchema, (target, l) => {
        target.setLatency(l.ms);
        return ok(JSON.stringify({ ms: l.ms }));
      }),
    },
  ],
  ['/requests', { method: 'GET', run: (target) => ok(JSON.stringify(target.requests())) }],
  ['/ws', { method: 'GET', run: (target) => ok(JSON.stringify(target.webSockets())) }],
  [
    '/ws/drop',
    {
      method: 'POST',
      run: withBody(ResetBodySchema, (target) => ok(JSON.stringify({ dropped: target.dropWebSockets() }))),
    },
  ],
  ['/ws/pause', pauseRoute(true)],
  ['/ws/resume', pauseRoute(false)],
  [
    '/ws/malformed',
    {
      method: 'POST',
      run: withBody(ResetBodySchema, (target) => ok(JSON.stringify({ sent: target.sendMalformedFrame() }))),
    },
  ],
]);

/** A request to the control surface, with what decides whether a web page could have sent it. */
interface ControlRequest {
  readonly method: string;
  readonly path: string;
  readonly body: string;
  readonly remoteAddress: string | undefined;
  readonly host: string | undefined;
  readonly origin: string | undefined;
  readonly contentType: string | undefined;
}

const LOOPBACK_HOST = /^(localhost|127(\.\d{1,3}){3}|\[::1\])(:\d{1,5})?$/i;

/**
 * Whether a web page other than the sandbox's own could have sent the request: a browser names the
 * page in Origin (with every WebSocket upgrade too), and only a page served by the sandbox under a
 * loopback name is its own (a rebound DNS name, whose Origin matches its Host, is not). A program
 * sends no Origin.
 */
export function fromForeignPage(r: Pick<ControlRequest, 'host' | 'origin'>): boolean {
  if (r.origin === undefined) return false;
  if (r.host === undefined || !LOOPBACK_HOST.test(r.host)) return true;
  return r.origin.replace(/^https?:\/\//i, '').toLowerCase() !== r.host.toLowerCase();
}

/** The refusal of a request from a web page of another origin, by what it addressed. */
export function foreignPageRefusal(surface: string): Reply {
  return fail(403, `${surface} does not answer requests from web pages of another origin.`);
}

/**
 * Why a request may not drive the sandbox: only a loopback client, addressing it by a loopback name
 * (a rebound DNS name is refused), with no foreign Origin and, for POST, a JSON body (which a web
 * page cannot send without a CORS preflight the sandbox never answers).
 */
function controlRefusal(r: ControlRequest): Reply | undefined {
  if (!isLoopbackAddress(r.remoteAddress))
    return fail(403, 'The /_sandbox/ control surface answers loopback clients only.');
  if (r.host === undefined || !LOOPBACK_HOST.test(r.host)) {
    return fail(
      403,
      'The /_sandbox/ control surface answers requests addressed to a loopback name (127.0.0.1, localhost) only.',
    );
  }
  if (fromForeignPage(r)) return foreignPageRefusal('The /_sandbox/ control surface');
  if (r.method === 'POST' && !/^application\/json\s*(;|$)/i.test(r.contentType ?? '')) {
    return fail(33333, 'POST to /_sandbox/ needs Content-Type: application/json.', { status: 415 });
  }
  return undefined;
}

/** Answers a request whose path starts with /_sandbox. */
export function handleControl(target: ControlTarget, r: ControlRequest): Reply {
  const refusal = controlRefusal(r);
  if (refusal) return refusal;
  const { method, path, body } = r;
  const sub = path.slice(CONTROL_PREFIX.length).replace(/\/$/, '');
  const route = ROUTES.get(sub);
  if (route === undefined) {
    return fail(730003, `No control endpoint ${path}; GET /_sandbox/ lists them.`, { status: 404 });
  }
  if (method !== route.method) {
    return fail(26, `${path} takes ${route.method}.`, { status: 405, headers: { Allow: route.method } });
  }
  let parsed: unknown = {};
  if (body.trim().length > 0) {
    try {
      parsed = JSON.parse(body);
    } catch {
      return invalid('The body is not valid JSON.');
    }
  }
  return route.run(target, parsed);
}
