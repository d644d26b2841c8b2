/**
 * The three signed REST calls of a listen key (docs/websocket.md: POST, PUT and DELETE
 * /api/v3/userDataStream), made through the same pipeline as every send (request/pipeline.ts):
 * the key from the caller's KeySource with its origin binding checked before anything is sent,
 * the rate-limit gate, the clock sync, the decode. A listen key is therefore obtained only from an
 * origin its key profile is bound to, and only when that profile approves the environment's WebSocket
 * origin too (url.ts checkListenKeyBinding). The key is a credential: it goes only into the request's
 * parameters, and every message made here shows it masked.
 */
import type { NamedEnvironment } from '../env/constants';
import { t } from '../l10n';
import type { TradeReqDocument } from '../format/model';
import { knownRequestDocument } from '../format/known-request';
import { runRequest, type PipelineDeps, type PipelineFailure } from '../request/pipeline';
import type { SendOutcome } from '../outcome';
import type { ListenKeyApi } from './listen-key';
import { checkListenKeyBinding, environmentWsUrl, listenKeyOf, redact } from './url';

const PATH = '/api/v3/userDataStream';

/** Why one of the calls failed: the pipeline's refusal (nothing sent), or the outcome of the answer. */
export type ListenKeyCallFailure =
  | { readonly kind: PipelineFailure['kind']; readonly message: string }
  | { readonly kind: Exclude<SendOutcome, 'ok'> | 'no-listen-key'; readonly message: string };

/**
 * What the calls are made with. Their `sender` (a NodeHttpSender) goes over the same Network as the
 * connection it leases the key for (WsConnectionOptions.network), so the key and the upgrade take
 * one route (net/network.ts).
 */
export type ListenKeyDeps = Pick<
  PipelineDeps,
  'sender' | 'budget' | 'clock' | 'clockSync' | 'key' | 'onUnboundOrigin'
> & {
  /** The environment whose REST side (baseUrl) gives the key. */
  readonly environment: NamedEnvironment;
  /** The request's key profile (`# @key`), else the environment's. */
  readonly keyProfile?: string;
  /** Told of each failed call before it is thrown (the shell maps `refused` to its exit code). */
  readonly onFailure?: (failure: ListenKeyCallFailure) => void;
};

/** A ListenKeyApi whose calls are signed REST requests sent like `tradereq send` sends them. */
export function restListenKeyApi(deps: ListenKeyDeps): ListenKeyApi {
  const environment = { ...deps.environment, key: deps.keyProfile ?? deps.environment.key };
  const wsUrl = environmentWsUrl(environment);
  const call = async (method: 'POST' | 'PUT' | 'DELETE', listenKey?: string): Promise<unknown> => {
    const doc = userDataStreamDocument(method, listenKey);
    const result = await runRequest(doc, doc.requests[0]!, environment, {
      ...deps,
      responses: new Map(),
      // userDataStream moves no funds: nothing to confirm (its permission is read).
      confirm: () => false,
      // The key obtained goes to the WebSocket endpoint: the key profile must approve it too.
      obtainsFor: method === 'POST' ? (binding) => checkListenKeyBinding(wsUrl, binding) : undefined,
    });
    const failure: ListenKeyCallFailure | undefined = !result.ok
      ? { kind: result.error.kind, message: result.error.message }
      : result.value.report.outcome !== 'ok'
        ? { kind: result.value.report.outcome, message: answerText(result.value.report) }
        : undefined;
    if (failure === undefined) return result.ok ? result.value.report.decoded?.json : undefined;
    const shown = { ...failure, message: redact(failure.message, listenKey) };
    deps.onFailure?.(shown);
    throw new Error(shown.message);
  };
  return {
    create: async () => {
      const key = listenKeyOf(await call('POST'));
      if (key !== undefined) return key;
      const failure = { kind: 'no-listen-key', message: t('{0} answered without a usable listenKey', PATH) } as const;
      deps.onFailure?.(failure);
      throw new Error(failure.message);
    },
    keepAlive: async (listenKey) => void (await call('PUT', listenKey)),
    close: async (listenKey) => void (await call('DELETE', listenKey)),
  };
}

function answerText(report: { summary: string; decoded?: { msg?: string } }): string {
  const msg = report.decoded?.msg;
  return msg === undefined ? report.summary : `${report.summary} (${msg})`;
}

/** `METHOD /api/v3/userDataStream` with `listenKey` in the query, as a one-request document built as data. */
function userDataStreamDocument(method: 'POST' | 'PUT' | 'DELETE', listenKey: string | undefined): TradeReqDocument {
  return knownRequestDocument({
    method,
    target: PATH,
    query: listenKey === undefined ? [] : [['listenKey', listenKey]],
  });
}
