/**
 * A WebSocket request of a `.tradereq` file (format.md, "WebSocket requests") once its variables
 * are resolved: what `tradereq listen` and the editor's stream view connect with. The resolver
 * (resolveWsRequest) lives beside this type; the shells only read it.
 */
import type { NamedEnvironment } from '../env/constants';
import type { MessageExpectation } from './expect';

export interface ListenBound {
  /** `# @listen 50`: stop after this many pushes. */
  readonly count?: number;
  /** `# @listen 30s`: stop after this long. */
  readonly durationMs?: number;
}

export interface ResolvedWsRequest {
  /** The request's title (`### title`), else its request line. */
  readonly title: string;
  readonly name?: string;
  readonly environment: NamedEnvironment;
  /** The full ws:// or wss:// URL to connect to, without any listenKey. */
  readonly url: string;
  /** The environment's wsUrl: the only origin a listen key may be sent to. */
  readonly envWsUrl: string;
  /** The environment's REST base URL: where a listen key is obtained, and the gate's origin. */
  readonly restBaseUrl: string;
  /** `[subscribe]` stream names, variables substituted, in file order, without duplicates. */
  readonly streams: readonly string[];
  /** `[message]` bodies as JSON text, variables substituted, in file order. */
  readonly messages: readonly string[];
  /** `# @listenKey`: obtain a listen key with the request's key profile before connecting. */
  readonly listenKey: boolean;
  /** `# @key PROFILE`, else the environment's key profile. */
  readonly keyProfile?: string;
  readonly listen: ListenBound;
  readonly expectations: readonly MessageExpectation[];
}
