/**
 * The part of Postman's collection format v2.1 and environment format that the import reads,
 * validated at the boundary. Fields the import does not use are stripped; unknown versions get
 * one clear message before anything is read.
 */
import { z } from 'zod';
import { ConvertError, IMPORT_LIMITS, checkInputSize } from './result';

const ScalarSchema = z.union([z.string(), z.number(), z.boolean(), z.null()]);
const DescriptionSchema = z.union([z.string(), z.object({ content: z.string().nullish() }), z.null()]).optional();

const KeyValueSchema = z.object({
  key: z.string().nullish(),
  value: ScalarSchema.optional(),
  disabled: z.boolean().optional(),
  enabled: z.boolean().optional(),
  description: DescriptionSchema,
  type: z.string().nullish(),
});
export type PostmanKeyValue = z.infer<typeof KeyValueSchema>;

const PathSegmentSchema = z.union([z.string(), z.object({ value: z.string().nullish() })]);
const UrlSchema = z.union([
  z.string(),
  z.object({
    raw: z.string().optional(),
    protocol: z.string().optional(),
    host: z.union([z.string(), z.array(z.string())]).optional(),
    port: z.string().optional(),
    path: z.union([z.string(), z.array(PathSegmentSchema)]).optional(),
    query: z.array(KeyValueSchema).nullish(),
    variable: z.array(KeyValueSchema).optional(),
  }),
]);
export type PostmanUrl = z.infer<typeof UrlSchema>;

const BodySchema = z
  .object({
    mode: z.string().optional(),
    raw: z.string().optional(),
    urlencoded: z.array(KeyValueSchema).optional(),
    formdata: z.array(KeyValueSchema).optional(),
    disabled: z.boolean().optional(),
    options: z.object({ raw: z.object({ language: z.string().optional() }).optional() }).optional(),
  })
  .nullish();
export type PostmanBody = z.infer<typeof BodySchema>;

const EventSchema = z.object({
  listen: z.string(),
  disabled: z.boolean().optional(),
  script: z.object({ exec: z.union([z.string(), z.array(z.string())]).optional() }).optional(),
});
export type PostmanEvent = z.infer<typeof EventSchema>;

const AuthSchema = z.object({ type: z.string(), apikey: z.array(KeyValueSchema).optional() }).nullish();
export type PostmanAuth = z.infer<typeof AuthSchema>;

const RequestSchema = z.union([
  z.string(),
  z.object({
    method: z.string().optional(),
    header: z.union([z.array(KeyValueSchema), z.string()]).nullish(),
    url: UrlSchema.optional(),
    body: BodySchema,
    auth: AuthSchema,
    description: DescriptionSchema,
  }),
]);
export type PostmanRequest = z.infer<typeof RequestSchema>;

export interface PostmanItem {
  name?: string | undefined;
  item?: PostmanItem[] | undefined;
  request?: PostmanRequest | undefined;
  event?: PostmanEvent[] | undefined;
  description?: z.infer<typeof DescriptionSchema>;
  auth?: PostmanAuth;
  response?: unknown[] | undefined;
}

const Item: z.ZodType<PostmanItem> = z.lazy(() =>
  z.object({
    name: z.string().optional(),
    item: z.array(Item).optional(),
    request: RequestSchema.optional(),
    event: z.array(EventSchema).optional(),
    description: DescriptionSchema,
    auth: AuthSchema,
    response: z.array(z.unknown()).optional(),
  }),
);

const CollectionSchema = z.object({
  info: z.object({ name: z.string().optional(), schema: z.string(), description: DescriptionSchema }),
  item: z.array(Item),
  event: z.array(EventSchema).optional(),
  variable: z.array(KeyValueSchema).optional(),
  auth: AuthSchema,
});
export type PostmanCollection = z.infer<typeof CollectionSchema>;

const EnvironmentSchema = z.object({ name: z.string().optional(), values: z.array(KeyValueSchema) });
export type PostmanEnvironment = z.infer<typeof EnvironmentSchema>;

const EXPORT_AGAIN = 'export it again from Postman as "Collection v2.1" (… → Export → CollectionSchema v2.1)';

/** JSON text → value, with the nesting bounded before a recursive schema walks it. */
function parseJson(what: string, text: string): unknown {
  checkInputSize(what, text);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new ConvertError(`${what} is not JSON (${e instanceof Error ? e.message : String(e)})`);
  }
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (depth > IMPORT_LIMITS.maxDepth * 4) throw new ConvertError(`${what} is nested too deeply to import`);
    if (v !== null && typeof v === 'object') for (const child of Object.values(v)) stack.push([child, depth + 1]);
  }
  return value;
}

function firstIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  return issue ? `${issue.path.join('.') || 'top level'}: ${issue.message}` : 'invalid';
}

/** The collection's version, from `info.schema`; anything but v2.1 gets one clear message. */
function checkVersion(value: unknown): void {
  const v = value as { info?: { schema?: unknown }; requests?: unknown; values?: unknown; order?: unknown };
  if (v === null || typeof v !== 'object' || Array.isArray(v))
    throw new ConvertError('the collection is not a JSON object');
  if (Array.isArray(v.values) && v.info === undefined)
    throw new ConvertError('this is a Postman environment, not a collection: give it with --environment ENVFILE');
  if (Array.isArray(v.requests) || Array.isArray(v.order))
    throw new ConvertError(`this is a Postman collection v1, which the import does not read: ${EXPORT_AGAIN}`);
  const schema = v.info?.schema;
  if (typeof schema !== 'string') throw new ConvertError('not a Postman collection: it has no info.schema');
  if (/\/collection\/v2\.1(\.\d+)?\//.test(schema)) return;
  const version = /\/collection\/(v[\d.]+)\//.exec(schema)?.[1];
  throw new ConvertError(
    version
      ? `this is a Postman collection ${version.replace(/\.0$/, '')}, which the import does not read: ${EXPORT_AGAIN}`
      : `not a Postman collection v2.1: info.schema is ${JSON.stringify(schema.slice(0, 100))}`,
  );
}

export function readCollection(text: string): PostmanCollection {
  const value = parseJson('the collection', text);
  checkVersion(value);
  const parsed = CollectionSchema.safeParse(value);
  if (!parsed.success)
    throw new ConvertError(`the collection does not follow Postman's format v2.1 (${firstIssue(parsed.error)})`);
  return parsed.data;
}

export function readEnvironment(text: string): PostmanEnvironment {
  const value = parseJson('the environment', text);
  const parsed = EnvironmentSchema.safeParse(value);
  if (!parsed.success)
    throw new ConvertError(`the environment is not a Postman environment export (${firstIssue(parsed.error)})`);
  return parsed.data;
}

/** `description` as text: a string or `{content}`. */
export function descriptionText(d: z.infer<typeof DescriptionSchema>): string {
  if (d === undefined || d === null) return '';
  return typeof d === 'string' ? d : (d.content ?? '');
}

export function scalarText(v: PostmanKeyValue['value']): string {
  return v === undefined || v === null ? '' : String(v);
}

/** An event's script as lines. */
export function scriptLines(e: PostmanEvent): string[] {
  const exec = e.script?.exec;
  const lines = exec === undefined ? [] : typeof exec === 'string' ? exec.split(/\r?\n/) : exec;
  return lines.flatMap((l) => l.split(/\r?\n/));
}
