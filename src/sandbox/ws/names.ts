/**
 * The stream names a deployment's clients subscribe to, read into what the sandbox plays: the
 * spec's JSON names through the stream catalog, mexc's `.pb` names (docs/websocket.md,
 * "Deployments"). A name the reader accepts is one the deployment's framing pushes to.
 */
import { parseStreamName } from '../../core/catalog/streams';
import { err, ok, type Result } from '../../core/result';

/** A stream the sandbox plays, as its name says. */
export type PlayedStream =
  | { readonly kind: 'deals'; readonly symbol: string }
  | { readonly kind: 'depth'; readonly symbol: string; readonly levels: number }
  | { readonly kind: 'bookTicker'; readonly symbol: string }
  | { readonly kind: 'kline'; readonly symbol: string; readonly interval: string }
  | { readonly kind: 'orders' }
  | { readonly kind: 'privateDeals' }
  | { readonly kind: 'account' };

export interface StreamReader {
  /** What `name` is, or why it is not a stream of the deployment (one or two sentences). */
  read(name: string): Result<PlayedStream, string>;
  /** A name to show in a usage hint. */
  readonly example: string;
}

export const JSON_STREAM_READER: StreamReader = {
  read: (name) => {
    const r = parseStreamName(name);
    return r.ok ? ok(r.value.stream) : err(r.error.message);
  },
  example: 'spot@public.deals.v3.api@BTCUSDT',
};
