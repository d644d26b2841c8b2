import { WS_RULES } from '../catalog/ws-limits';

/**
 * Environment facts that need no validation code, kept apart from the zod schema so that what
 * loads at activation stays small.
 */
export interface NamedEnvironment {
  readonly name: string;
  readonly baseUrl: string;
  /** The WebSocket endpoint; when absent, the base URL with ws:// or wss:// and /ws (ws/url.ts environmentWsUrl). */
  readonly wsUrl?: string;
  readonly key?: string;
  readonly confirm?: boolean;
  readonly apiKeyHeader?: string;
  /** The deployment it talks to (catalog/deployment.ts); the published spec's when absent. */
  readonly deployment?: string;
  readonly variables?: Readonly<Record<string, string | number | boolean>>;
}

export { DEFAULT_API_KEY_HEADER } from '../catalog/key-header';
export const ENV_FILE_NAME = 'tradereq.env.json';

/** The environment used when a workspace has no tradereq.env.json: the embedded sandbox exchange. */
export const SANDBOX_PORT = 8780;
export const BUILTIN_SANDBOX: NamedEnvironment = {
  name: 'sandbox',
  baseUrl: `http://127.0.0.1:${SANDBOX_PORT}`,
  wsUrl: `ws://127.0.0.1:${SANDBOX_PORT}${WS_RULES.path}`,
  key: 'sandbox',
};
