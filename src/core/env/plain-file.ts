/**
 * `tradereq.env.json` as people write it, read without zod: `tradereq send` reads the file on every
 * run, and loading the schema (zod, dist/cli/core-env-schema.js) and making it cost each send
 * milliseconds. It takes only what schema.ts's EnvironmentFileSchema takes, and gives what
 * parseEnvironmentFile gives (each environment's fields in the schema's order, its deployment's
 * defaults applied); anything else (an unknown field, a value of another type or form, a name that
 * looks like a secret, a missing baseUrl, `__proto__`) is undefined, for the schema to decide and word.
 * The patterns are the schema's own (one home: here).
 */
import { PROFILE_NAME_PATTERN } from './keys';
import { looksLikeSecret } from './secrets';
import { DEFAULT_DEPLOYMENT, DEPLOYMENT_IDS, deploymentOf } from '../catalog/deployment';
import type { NamedEnvironment } from './constants';

/** What each string of the file must look like (schema.ts words the refusals). */
export const ENV_PATTERNS = {
  environmentName: /^[A-Za-z0-9][\w.-]*$/,
  baseUrl: /^https?:\/\/[^\s/?#]+(\/[^\s?#]*)?$/,
  wsUrl: /^wss?:\/\/[^\s/?#@]+(\/[^\s?#]*)?$/,
  key: PROFILE_NAME_PATTERN,
  apiKeyHeader: /^[A-Za-z0-9-]+$/,
  variableName: /^[A-Za-z_][\w.-]*$/,
} as const;

/** An environment as written: its deployment's defaults not yet applied. */
export interface WrittenEnvironment {
  deployment?: (typeof DEPLOYMENT_IDS)[number];
  baseUrl?: string;
  wsUrl?: string;
  key?: string;
  confirm?: boolean;
  apiKeyHeader?: string;
  variables?: Record<string, string | number | boolean>;
}

/** An environment with its deployment's base URL, WebSocket URL and key header where it names none. */
export type Environment = Omit<NamedEnvironment, 'name'>;
export type EnvironmentFile = Readonly<Record<string, Environment>>;

/** `env` with its deployment's defaults where it writes none of its own (its own still win). */
export function withDeployment(env: WrittenEnvironment): Environment {
  const d = deploymentOf(env);
  const baseUrl = env.baseUrl ?? d.baseUrl;
  if (baseUrl === undefined) throw new Error('a baseUrl the schema requires'); // schema.ts's superRefine
  const wsUrl = env.wsUrl ?? (env.baseUrl === undefined ? d.wsUrl : undefined);
  const apiKeyHeader = env.apiKeyHeader ?? (d === DEFAULT_DEPLOYMENT ? undefined : d.apiKeyHeader);
  return {
    ...env,
    baseUrl,
    ...(wsUrl !== undefined ? { wsUrl } : {}),
    ...(apiKeyHeader !== undefined ? { apiKeyHeader } : {}),
  };
}

/** A JSON object (as JSON.parse makes them) with no `__proto__` member, which zod leaves out. */
function isPlainObject(v: unknown): v is Record<string, unknown> {
  return (
    typeof v === 'object' &&
    v !== null &&
    Object.getPrototypeOf(v) === Object.prototype &&
    !Object.hasOwn(v, '__proto__')
  );
}

const matches = (v: unknown, pattern: RegExp): v is string => typeof v === 'string' && pattern.test(v);

/** The fields of an environment, in the schema's order, each with its test. */
const FIELDS: readonly (readonly [keyof WrittenEnvironment, (v: unknown) => boolean])[] = [
  ['deployment', (v) => typeof v === 'string' && (DEPLOYMENT_IDS as readonly string[]).includes(v)],
  ['baseUrl', (v) => matches(v, ENV_PATTERNS.baseUrl)],
  ['wsUrl', (v) => matches(v, ENV_PATTERNS.wsUrl)],
  ['key', (v) => matches(v, ENV_PATTERNS.key)],
  ['confirm', (v) => typeof v === 'boolean'],
  ['apiKeyHeader', (v) => matches(v, ENV_PATTERNS.apiKeyHeader)],
  ['variables', plainVariables],
];
const FIELD_NAMES: ReadonlySet<string> = new Set(FIELDS.map(([name]) => name));

function plainVariables(v: unknown): boolean {
  return (
    isPlainObject(v) &&
    Object.entries(v).every(
      ([name, value]) =>
        ENV_PATTERNS.variableName.test(name) &&
        !looksLikeSecret(name) &&
        (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'),
    )
  );
}

function plainEnvironment(v: unknown): WrittenEnvironment | undefined {
  if (!isPlainObject(v) || Object.keys(v).some((k) => !FIELD_NAMES.has(k))) return undefined;
  const env: Record<string, unknown> = {};
  for (const [name, valid] of FIELDS) {
    if (v[name] === undefined) continue;
    if (!valid(v[name])) return undefined;
    // Copies, as zod's parse gives them: the file's objects are not shared with the result.
    env[name] = name === 'variables' ? { ...(v[name] as object) } : v[name];
  }
  const written = env as WrittenEnvironment;
  return written.baseUrl === undefined && deploymentOf(written).baseUrl === undefined ? undefined : written;
}

/** The environments of a file's text as parseEnvironmentFile gives them, or undefined for the schema to read. */
export function plainEnvironmentFile(text: string): EnvironmentFile | undefined {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isPlainObject(raw)) return undefined;
  const file: Record<string, Environment> = {};
  for (const [name, value] of Object.entries(raw)) {
    const env = ENV_PATTERNS.environmentName.test(name) ? plainEnvironment(value) : undefined;
    if (!env) return undefined;
    file[name] = withDeployment(env);
  }
  return file;
}
