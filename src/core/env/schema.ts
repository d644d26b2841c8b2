/**
 * `tradereq.env.json`: named environments, shared in the repository, holding no secret
 * (docs/format.md, Environments). The JSON schema the editor contributes is generated from this.
 */
import { z } from 'zod';
import { err, ok, type Result } from '../result';
import { PROFILE_NAME_PATTERN } from './keys';
import { looksLikeSecret, secretNameMessage } from './secrets';

export const EnvironmentSchema = z
  .object({
    baseUrl: z
      .string()
      .regex(
        /^https?:\/\/[^\s/?#]+(\/[^\s?#]*)?$/,
        'baseUrl must be an http:// or https:// URL such as https://api.example.com',
      )
      .describe('Base URL the request paths are joined to, e.g. https://api.example.com.'),
    wsUrl: z
      .string()
      .regex(
        /^wss?:\/\/[^\s/?#@]+(\/[^\s?#]*)?$/,
        'wsUrl must be a ws:// or wss:// URL such as wss://stream.example.com/ws',
      )
      .optional()
      .describe(
        'WebSocket endpoint of the WS requests, e.g. wss://stream.example.com/ws; a listen key is sent to its origin only. Default: the base URL with ws:// or wss:// and the path /ws.',
      ),
    key: z
      .string()
      .regex(PROFILE_NAME_PATTERN, 'key names a key profile: letters, digits, "-" and "_"')
      .optional()
      .describe(
        'Name of the key profile used to sign requests. The keys themselves live in VS Code SecretStorage or in TRADEREQ_<PROFILE>_API_KEY / TRADEREQ_<PROFILE>_SECRET_KEY, never in this file.',
      ),
    confirm: z.boolean().optional().describe('Ask for confirmation before every order sent to this environment.'),
    apiKeyHeader: z
      .string()
      .regex(/^[A-Za-z0-9-]+$/, 'apiKeyHeader must be a header name')
      .optional()
      .describe('Header that carries the API key (default X-SERVICE-APIKEY, spec §4.1 rule 7).'),
    variables: z
      .record(
        z.string().regex(/^[A-Za-z_][\w.-]*$/, 'variable names are letters, digits, "_", "-" and "."'),
        z.union([z.string(), z.number(), z.boolean()]),
      )
      .optional()
      .describe('Variables available as {{name}} in requests sent to this environment. Never secrets.'),
  })
  .strict()
  .superRefine((env, ctx) => {
    for (const name of Object.keys(env.variables ?? {})) {
      if (looksLikeSecret(name)) {
        ctx.addIssue({
          code: 'custom',
          path: ['variables', name],
          message: secretNameMessage(name, 'tradereq.env.json'),
        });
      }
    }
  });

export const EnvironmentFileSchema = z
  .record(
    z.string().regex(/^[A-Za-z0-9][\w.-]*$/, 'environment names are letters, digits, "_", "-" and "."'),
    EnvironmentSchema,
  )
  .describe(
    'TradeReq environments: name → base URL, key profile and variables. Shared in the repository; holds no secret.',
  );

export type Environment = z.infer<typeof EnvironmentSchema>;
export type EnvironmentFile = z.infer<typeof EnvironmentFileSchema>;

export { BUILTIN_SANDBOX, ENV_FILE_NAME, type NamedEnvironment } from './constants';

/** Validates the text of a tradereq.env.json; the failure says where and what to fix. */
export function parseEnvironmentFile(text: string): Result<EnvironmentFile, string> {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    return err(`not valid JSON (${e instanceof Error ? e.message : String(e)})`);
  }
  const result = EnvironmentFileSchema.safeParse(raw);
  if (result.success) return ok(result.data);
  const issue = result.error.issues[0];
  const where = issue && issue.path.length > 0 ? issue.path.join('.') + ': ' : '';
  return err(where + (issue?.message ?? 'invalid'));
}
