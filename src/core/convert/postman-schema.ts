/**
 * The part of Postman's collection format v2.1 and environment format that the import reads,
 * validated at the boundary. Fields the import does not use are stripped; unknown versions get
 * one clear message before anything is read.
 */
import * as z from '../zod-mini';
import { ConvertError, IMPORT_LIMITS, checkInputSize } from './import-result';

const ScalarSchema = z.union([z.string(), z.number(), z.boolean(), z.null()]);
const DescriptionSchema = z.optional(z.union([z.string(), z.object({ content: z.nullish(z.string()) }), z.null()]));

const KeyValueSchema = z.object({
  key: z.nullish(z.string()),
  value: z.optional(ScalarSchema),
  disabled: z.optional(z.boolean()),
  enabled: z.optional(z.boolean()),
  description: DescriptionSchema,
  type: z.nullish(z.string()),
});
export type PostmanKeyValue = z.infer<typeof KeyValueSchema>;

const PathSegmentSchema = z.union([z.string(), z.object({ value: z.nullish(z.string()) })]);
const UrlSchema = z.union([
  z.string(),
  z.object({
    raw: z.optional(z.string()),
    protocol: z.optional(z.string()),
    host: z.optional(z.union([z.string(), z.array(z.string())])),
    port: z.optional(z.string()),
    path: z.optional(z.union([z.string(), z.array(PathSegmentSchema)])),
    query: z.nullish(z.array(KeyValueSchema)),
    variable: z.optional(z.array(KeyValueSchema)),
  }),
]);
export type PostmanUrl = z.infer<typeof UrlSchema>;

const BodySchema = z.nullish(
  z.object({
    mode: z.optional(z.string()),
    raw: z.optional(z.string()),
    urlencoded: z.optional(z.array(KeyValueSchema)),
    formdata: z.optional(z.array(KeyValueSchema)),
    disabled: z.optional(z.boolean()),
    options: z.optional(z.object({ raw: z.optional(z.object({ language: z.optional(z.string()) })) })),
  }),
);
export type PostmanBody = z.infer<typeof BodySchema>;

const EventSchema = z.object({
  listen: z.string(),
  disabled: z.optional(z.boolean()),
  script: z.optional(z.object({ exec: z.optional(z.union([z.string(), z.array(z.string())])) })),
});
export type PostmanEvent = z.infer<typeof EventSchema>;

const AuthSchema = z.nullish(z.object({ type: z.string(), apikey: z.optional(z.array(KeyValueSchema)) }));
export type PostmanAuth = z.infer<typeof AuthSchema>;

const RequestSchema = z.union([
  z.string(),
  z.object({
    method: z.optional(z.string()),
    header: z.nullish(z.union([z.array(KeyValueSchema), z.string()])),
    url: z.optional(UrlSchema),
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

const Item: z.ZodMiniType<PostmanItem> = z.lazy(() =>
  z.object({
    name: z.optional(z.string()),
    item: z.optional(z.array(Item)),
    request: z.optional(RequestSchema),
    event: z.optional(z.array(EventSchema)),
    description: DescriptionSchema,
    auth: AuthSchema,
    response: z.optional(z.array(z.unknown())),
  }),
);

const CollectionSchema = z.object({
  info: z.object({ name: z.optional(z.string()), schema: z.string(), description: DescriptionSchema }),
  item: z.array(Item),
  event: z.optional(z.array(EventSchema)),
  variable: z.optional(z.array(KeyValueSchema)),
  auth: AuthSchema,
});
export type PostmanCollection = z.infer<typeof CollectionSchema>;

const EnvironmentSchema = z.object({ name: z.optional(z.string()), values: z.array(KeyValueSchema) });
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

function firstIssue(error: z.core.$ZodError): string {
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

/** Scripts already split: an import asks for the lines of a script several times, and one may be long. */
const SCRIPT_LINES = new WeakMap<PostmanEvent, readonly string[]>();

/** An event's script as lines. */
export function scriptLines(e: PostmanEvent): readonly string[] {
  const known = SCRIPT_LINES.get(e);
  if (known) return known;
  const exec = e.script?.exec;
  const lines = exec === undefined ? [] : typeof exec === 'string' ? [exec] : exec;
  const out: string[] = [];
  for (const l of lines) for (const part of l.split(/\r?\n/)) out.push(part);
  SCRIPT_LINES.set(e, out);
  return out;
}
