/**
 * `tradereq.env.json`: named environments, shared in the repository, holding no secret
 * (docs/format.md, Environments). The JSON schema the editor contributes is generated from this.
 */
import { err, ok, type Result } from '../result';
import * as z from '../zod-mini';
import { PROFILE_NAME_PATTERN } from './keys';
import { looksLikeSecret, secretNameMessage } from './secrets';
import { DEFAULT_DEPLOYMENT, DEPLOYMENTS, DEPLOYMENT_IDS, deploymentOf } from '../catalog/deployment';
import type { NamedEnvironment } from './constants';

/** A text matching `pattern`, with `message` when it does not. */
const matching = (pattern: RegExp, message: string) => z.string().check(z.regex(pattern, message));

const EnvironmentSchema = z
  .strictObject({
    deployment: z
      .optional(z.enum(DEPLOYMENT_IDS))
      .check(
        z.describe(
          `Which deployment of the service this environment talks to: ${DEPLOYMENTS.map((d) => `"${d.id}" (${d.title})`).join(', ')}. It gives the key header, the base and WebSocket URLs, the endpoint and stream catalogs and how pushes are encoded; baseUrl, wsUrl and apiKeyHeader written here still win. Default "${DEFAULT_DEPLOYMENT.id}".`,
        ),
      ),
    baseUrl: z
      .optional(
        matching(
          /^https?:\/\/[^\s/?#]+(\/[^\s?#]*)?$/,
          'baseUrl must be an http:// or https:// URL such as https://api.example.com',
        ),
      )
      .check(
        z.describe(
          'Base URL the request paths are joined to, e.g. https://api.example.com. May be left out when the deployment has one.',
        ),
      ),
    wsUrl: z
      .optional(
        matching(
          /^wss?:\/\/[^\s/?#@]+(\/[^\s?#]*)?$/,
          'wsUrl must be a ws:// or wss:// URL such as wss://stream.example.com/ws',
        ),
      )
      .check(
        z.describe(
          'WebSocket endpoint of the WS requests, e.g. wss://stream.example.com/ws; a listen key is sent to its origin only. Default: the base URL with ws:// or wss:// and the path /ws.',
        ),
      ),
    key: z
      .optional(matching(PROFILE_NAME_PATTERN, 'key names a key profile: letters, digits, "-" and "_"'))
      .check(
        z.describe(
          'Name of the key profile used to sign requests. The keys themselves live in VS Code SecretStorage or in TRADEREQ_<PROFILE>_API_KEY / TRADEREQ_<PROFILE>_SECRET_KEY, never in this file.',
        ),
      ),
    confirm: z
      .optional(z.boolean())
      .check(z.describe('Ask for confirmation before every order sent to this environment.')),
    apiKeyHeader: z
      .optional(matching(/^[A-Za-z0-9-]+$/, 'apiKeyHeader must be a header name'))
      .check(z.describe('Header that carries the API key (default X-SERVICE-APIKEY, spec §4.1 rule 7).')),
    variables: z
      .optional(
        z.record(
          matching(/^[A-Za-z_][\w.-]*$/, 'variable names are letters, digits, "_", "-" and "."'),
          z.union([z.string(), z.number(), z.boolean()]),
        ),
      )
      .check(z.describe('Variables available as {{name}} in requests sent to this environment. Never secrets.')),
  })
  .check(
    z.superRefine((env, ctx) => {
      if (env.baseUrl === undefined && deploymentOf(env).baseUrl === undefined) {
        ctx.addIssue({
          code: 'custom',
          path: ['baseUrl'],
          message: `baseUrl is required: the deployment "${deploymentOf(env).id}" has no address of its own`,
        });
      }
      for (const name of Object.keys(env.variables ?? {})) {
        if (looksLikeSecret(name)) {
          ctx.addIssue({
            code: 'custom',
            path: ['variables', name],
            message: secretNameMessage(name, 'tradereq.env.json'),
          });
        }
      }
    }),
  );

export const EnvironmentFileSchema = z
  .record(
    matching(/^[A-Za-z0-9][\w.-]*$/, 'environment names are letters, digits, "_", "-" and "."'),
    EnvironmentSchema,
  )
  .check(
    z.describe(
      'TradeReq environments: name → base URL, key profile and variables. Shared in the repository; holds no secret.',
    ),
  );

/** An environment as written: its deployment's defaults not yet applied. */
export type WrittenEnvironment = z.infer<typeof EnvironmentSchema>;
export type WrittenEnvironmentFile = z.infer<typeof EnvironmentFileSchema>;
/** An environment with its deployment's base URL, WebSocket URL and key header where it names none. */
export type Environment = Omit<NamedEnvironment, 'name'>;
export type EnvironmentFile = Readonly<Record<string, Environment>>;

/** `env` with its deployment's defaults where it writes none of its own (its own still win). */
export function withDeployment(env: WrittenEnvironment): Environment {
  const d = deploymentOf(env);
  const baseUrl = env.baseUrl ?? d.baseUrl;
  if (baseUrl === undefined) throw new Error('a baseUrl the schema requires'); // the superRefine above
  const wsUrl = env.wsUrl ?? (env.baseUrl === undefined ? d.wsUrl : undefined);
  const apiKeyHeader = env.apiKeyHeader ?? (d === DEFAULT_DEPLOYMENT ? undefined : d.apiKeyHeader);
  return {
    ...env,
    baseUrl,
    ...(wsUrl !== undefined ? { wsUrl } : {}),
    ...(apiKeyHeader !== undefined ? { apiKeyHeader } : {}),
  };
}

export { BUILTIN_SANDBOX, type NamedEnvironment } from './constants';

/** Validates the text of a tradereq.env.json; the failure says where and what to fix. */
export function parseEnvironmentFile(text: string): Result<EnvironmentFile, string> {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    return err(`not valid JSON (${e instanceof Error ? e.message : String(e)})`);
  }
  const result = EnvironmentFileSchema.safeParse(raw);
  if (result.success)
    return ok(Object.fromEntries(Object.entries(result.data).map(([name, env]) => [name, withDeployment(env)])));
  const issue = result.error.issues[0];
  const where = issue && issue.path.length > 0 ? issue.path.join('.') + ': ' : '';
  return err(where + (issue?.message ?? 'invalid'));
}
