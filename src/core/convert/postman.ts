/**
 * A Postman collection v2.1 (and optionally an environment) → one `.tradereq` file per folder
 * and the environments of a `tradereq.env.json`. The family's signing pre-request script is
 * recognised by what it does and replaced by TradeReq's signing; other scripts are kept as
 * comments; secrets are never copied.
 */
import { parse } from '../format/parser';
import { BaseMapper } from './base-url';
import { type DraftRequest } from './draft';
import { buildEnvironment, keyProfileNote, lookup, readVariables, type VariableSets } from './postman-env';
import {
  convertRequest,
  hasScript,
  headerNames,
  isSigningScript,
  keptNote,
  keptText,
  scriptAsChecks,
  scriptKind,
  testChecks,
  type RequestContext,
} from './postman-request';
import type { Deployment } from '../catalog/deployment';
import {
  descriptionText,
  readCollection,
  readEnvironment,
  scriptLines,
  type PostmanAuth,
  type PostmanCollection,
  type PostmanEvent,
  type PostmanItem,
  type PostmanUrl,
} from './postman-schema';
import { ConvertError, IMPORT_LIMITS, type ImportResult, type ImportedFile } from './import-result';
import { apiKeyAdvice, applySigning } from './signing';
import { deploymentOfBase, deploymentOfKeyHeader, importCatalog } from './deployment-env';
import { Notes, UniqueNames, requestNameFrom, slug } from './common';
import { secondsNote } from './foreign-variables';
import { portableFileName, renderFile } from './write';

interface InheritedEvent {
  readonly event: PostmanEvent;
  readonly owner: string;
}

interface Scope {
  readonly folders: readonly string[];
  readonly events: readonly InheritedEvent[];
  readonly auth: PostmanAuth;
  readonly description: string;
}

interface Entry {
  readonly item: PostmanItem;
  readonly scope: Scope;
}

/**
 * The deployment the collection talks to: its base URL's host; with no base URL known (a variable
 * without a value), the deployment whose own key header its requests send.
 */
function deploymentOf(baseUrl: string | undefined, entries: readonly Entry[], notes: Notes): Deployment | undefined {
  if (baseUrl !== undefined) return deploymentOfBase(baseUrl);
  const d = deploymentOfKeyHeader(entries.flatMap((e) => headerNames(e.item.request)));
  if (d !== undefined)
    notes.add(
      `the requests send ${d.apiKeyHeader}, the key header of ${d.title}: the environment names "deployment": "${d.id}" and points at the sandbox (tradereq sandbox --deployment ${d.id}) until you set its baseUrl or take it out.`,
    );
  return d;
}

function isSigning(e: PostmanEvent): boolean {
  return e.listen === 'prerequest' && hasScript(e) && isSigningScript(scriptLines(e));
}

function effectiveAuth(own: PostmanAuth, inherited: PostmanAuth): PostmanAuth {
  return own && own.type !== 'inherit' ? own : inherited;
}

/** Requests in collection order, each with what its folders pass down. */
function collect(items: readonly PostmanItem[], scope: Scope, out: Entry[], notes: Notes): void {
  if (scope.folders.length > IMPORT_LIMITS.maxDepth)
    throw new ConvertError('the collection nests folders too deeply to import');
  for (const item of items) {
    if (item.item !== undefined) {
      const name = item.name ?? 'folder';
      const before = out.length;
      collect(
        item.item,
        {
          folders: [...scope.folders, name],
          events: [...scope.events, ...(item.event ?? []).map((event) => ({ event, owner: `the folder "${name}"` }))],
          auth: effectiveAuth(item.auth, scope.auth),
          description: descriptionText(item.description).trim(),
        },
        out,
        notes,
      );
      if (out.length === before) notes.add(`the folder "${name}" holds no request; no file is written for it.`);
    } else if (item.request !== undefined) {
      out.push({ item, scope });
      if (out.length > IMPORT_LIMITS.maxRequests)
        throw new ConvertError(`the collection holds more than ${IMPORT_LIMITS.maxRequests} requests: split it`);
    }
  }
}

function rawUrl(item: PostmanItem): string {
  const r = item.request;
  const url: PostmanUrl | undefined = typeof r === 'string' ? r : r?.url;
  if (url === undefined) return '';
  const raw =
    typeof url === 'string' ? url : (url.raw ?? (Array.isArray(url.host) ? url.host.join('.') : (url.host ?? '')));
  return raw.split('?')[0]!;
}

interface BaseSplit {
  readonly key?: string;
  readonly variable?: string;
  readonly rest: string;
}

/** `{{url}}/api/v3/order` → key `{{url}}`; `https://h/api` → key the origin. */
function splitBase(raw: string): BaseSplit {
  const v = /^\{\{\s*([^{}\s]+)\s*\}\}(.*)$/s.exec(raw);
  if (v) return { key: `{{${v[1]}}}`, variable: v[1], rest: v[2]! };
  const o = /^(https?:\/\/[^/?#]+)(.*)$/is.exec(raw);
  if (o) return { key: o[1]!.toLowerCase(), rest: o[2]! };
  return { rest: raw };
}

interface Base {
  readonly key?: string;
  readonly variable?: string;
  readonly url?: string;
}

/** The base most requests use becomes the environment's baseUrl; its requests get paths. */
function chooseBase(entries: readonly Entry[], vars: VariableSets, notes: Notes): Base {
  const counts = new Map<string, number>();
  for (const e of entries) {
    const key = splitBase(rawUrl(e.item)).key;
    if (key !== undefined) counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const key = [...counts.entries()].sort((a, b) => b[1] - a[1])[0]?.[0];
  if (key === undefined) return {};
  if (!key.startsWith('{{')) return { key, url: key };
  const variable = key.slice(2, -2);
  const value = baseValue(lookup(vars, variable));
  if (value !== undefined) return { key, variable, url: value };
  const other = [...vars.environment, ...vars.collection].find(
    (v) => /url|host|base/i.test(v.name) && baseValue(v.value) !== undefined,
  );
  notes.add(
    other
      ? `{{${variable}}} stands for the base URL but has no value; the environment's baseUrl is {{${other.name}}} (${baseValue(other.value)}): change it if another is meant.`
      : `{{${variable}}} stands for the base URL but has no http(s) value in the collection or the environment.`,
  );
  return { key, variable, ...(other ? { url: baseValue(other.value) } : {}) };
}

/** An http(s) URL without query, trailing slashes removed: what a baseUrl holds. */
function baseValue(value: string | undefined): string | undefined {
  const v = value?.trim().replace(/\/+$/, '');
  return v !== undefined && /^https?:\/\/[^\s?#]+$/i.test(v) ? v : undefined;
}

function targetFor(base: Base, vars: VariableSets, bases: BaseMapper, notes: Notes): RequestContext['target'] {
  return (raw) => {
    const s = splitBase(raw);
    if (s.key !== undefined && s.key === base.key) {
      const rest = s.rest.length === 0 ? '/' : s.rest.startsWith('/') ? s.rest : '/' + s.rest;
      return { target: rest, path: rest.includes('{{') ? undefined : rest };
    }
    const under = underBase(raw, s, vars, bases);
    if (under !== undefined) return { target: under, path: under.includes('{{') ? undefined : under };
    if (s.variable !== undefined) return { target: raw, path: undefined };
    if (s.key !== undefined) return { target: raw, path: s.rest || '/' };
    if (raw.startsWith('/')) return { target: raw, path: raw };
    notes.add(
      `the URL ${JSON.stringify(raw.slice(0, 60))} has no scheme; Postman uses http://, and so does the request.`,
    );
    return { target: 'http://' + raw, path: undefined };
  };
}

/** A URL under the base URL, written out in full or through another variable that holds it: its path. */
function underBase(raw: string, s: BaseSplit, vars: VariableSets, bases: BaseMapper): string | undefined {
  if (s.variable === undefined) return bases.http(raw);
  const value = lookup(vars, s.variable)?.trim();
  return value === undefined || value.includes('{{') ? undefined : bases.http(value.replace(/\/+$/, '') + s.rest);
}

export function postmanImport(collectionText: string, environmentText?: string): ImportResult {
  const notes = new Notes();
  const collection = readCollection(collectionText);
  const environment = environmentText !== undefined ? readEnvironment(environmentText) : undefined;
  const vars = readVariables(collection.variable, environment?.values, notes);
  const entries: Entry[] = [];
  const top: Scope = {
    folders: [],
    events: (collection.event ?? []).map((event) => ({ event, owner: 'the collection' })),
    auth: collection.auth,
    description: '',
  };
  collect(collection.item, top, entries, notes);
  if (entries.length === 0) throw new ConvertError('the collection holds no request');
  const base = chooseBase(entries, vars, notes);
  const envName = slug(environment?.name ?? collection.info.name ?? 'imported', 'imported');
  const bases = new BaseMapper(base.url !== undefined ? [{ name: envName, baseUrl: base.url }] : [], notes);
  const deployment = deploymentOf(base.url, entries, notes);
  const ctx: RequestContext = {
    notes,
    referenced: new Set(),
    apiKeyHeaders: new Set(),
    counts: { descriptions: 0, examples: 0 },
    target: targetFor(base, vars, bases, notes),
    ...(deployment ? { deployment } : {}),
  };
  const files = writeFiles(collection, entries, vars, base, envName, ctx);
  const keepBase = (name: string): boolean => name !== base.variable || ctx.referenced.has(name);
  const apiKeyHeader = [...ctx.apiKeyHeaders][0];
  if (ctx.apiKeyHeaders.size > 1)
    notes.add(
      `requests use several API key headers (${[...ctx.apiKeyHeaders].join(', ')}); the environment names ${apiKeyHeader}.`,
    );
  const env = buildEnvironment(
    {
      name: envName,
      baseUrl: base.url,
      profile: envName,
      apiKeyHeader,
      ...(deployment ? { deployment } : {}),
      variables: vars.environment.filter((v) => keepBase(v.name)),
    },
    notes,
  );
  if (vars.secrets.length > 0 || apiKeyHeader !== undefined) notes.add(keyProfileNote(envName, vars.secrets));
  const signing = entries.some((e) => [...e.scope.events.map((i) => i.event), ...(e.item.event ?? [])].some(isSigning));
  if (signing)
    notes.add(
      "the signing pre-request script is replaced by TradeReq's signing; anything else it does (choosing a host, setting headers) is not carried over.",
    );
  if (ctx.counts.examples > 0) notes.add(`${ctx.counts.examples} saved example response(s) are not carried over.`);
  if (ctx.counts.descriptions > 0)
    notes.add(`${ctx.counts.descriptions} parameter description(s) are not carried over.`);
  if (descriptionText(collection.info.description).trim().length > 0)
    notes.add("the collection's description is not carried over.");
  undefinedVariables(files, vars, env, notes);
  return { files, environment: env, notes: notes.list(), requestCount: entries.length };
}

/** Groups the requests by folder, one file each, in the collection's order. */
function writeFiles(
  collection: PostmanCollection,
  entries: readonly Entry[],
  vars: VariableSets,
  base: Base,
  profile: string,
  ctx: RequestContext,
): ImportedFile[] {
  const groups = new Map<string, Entry[]>();
  for (const e of entries) {
    const key = e.scope.folders.join('\u0000');
    const group = groups.get(key);
    if (group) group.push(e);
    else groups.set(key, [e]);
  }
  const fileNames = new UniqueNames();
  const files: ImportedFile[] = [];
  for (const group of groups.values()) {
    const folders = group[0]!.scope.folders;
    // Portable before made unique: `con` becomes `con_`, which must not take the name of another file.
    const stem = slug(folders.length > 0 ? folders.join(' ') : (collection.info.name ?? ''), 'collection');
    const path = portableFileName(fileNames.take(portableFileName(stem, '')), '.tradereq');
    const seen = ctx.apiKeyHeaders;
    ctx.apiKeyHeaders = new Set();
    const requests = group.map((e) => draftRequest(e, path, ctx));
    const fileHeaders = ctx.apiKeyHeaders;
    ctx.apiKeyHeaders = new Set([...seen, ...fileHeaders]);
    nameRequests(group, requests);
    const variables = vars.collection.filter((v) => v.name !== base.variable || ctx.referenced.has(v.name));
    const comments = fileComments(collection, group, profile, fileHeaders, ctx);
    files.push({ path, text: renderFile({ comments, variables, blocks: requests }, path, ctx.notes) });
  }
  return files;
}

function draftRequest(e: Entry, file: string, ctx: RequestContext): DraftRequest {
  const where = `${file}: "${e.item.name ?? 'request'}"`;
  const own = typeof e.item.request === 'string' ? undefined : e.item.request?.auth;
  const { request, path } = convertRequest(e.item, effectiveAuth(own, e.scope.auth), where, ctx);
  inheritedChecks(request, e.scope.events);
  applySigning(request, path, where, ctx.notes, importCatalog(ctx.deployment));
  secondsNote(request, 'Postman', where, ctx.notes);
  return request;
}

/** The checks of the collection's and folders' test scripts, which Postman runs before the request's own. */
function inheritedChecks(request: DraftRequest, events: readonly InheritedEvent[]): void {
  // A check written twice (a folder's and the request's own) is one line.
  const inherited = new Set<string>();
  for (const i of events) for (const d of testChecks(i.event)?.directives ?? []) inherited.add(d);
  if (inherited.size === 0) return;
  for (const d of request.directives) inherited.add(d);
  request.directives.length = 0;
  for (const d of inherited) request.directives.push(d);
}

/** `# @name` from a slug of the request's name, where that slug is unique in the file. */
function nameRequests(group: readonly Entry[], requests: DraftRequest[]): void {
  const slugs = group.map((e) => requestNameFrom(e.item.name ?? ''));
  slugs.forEach((s, i) => {
    if (slugs.indexOf(s) === slugs.lastIndexOf(s)) requests[i]!.name = s;
  });
}

function fileComments(
  collection: PostmanCollection,
  group: readonly Entry[],
  profile: string,
  apiKeyHeaders: ReadonlySet<string>,
  ctx: RequestContext,
): string[] {
  const notes = ctx.notes;
  const comments = [`Imported from the Postman collection "${collection.info.name ?? ''}" by tradereq import.`];
  const inherited = [...new Set(group.flatMap((e) => e.scope.events))];
  const own = group.flatMap((e) => e.item.event ?? []);
  const signing = [...inherited.map((i) => i.event), ...own].some(isSigning);
  if (signing)
    comments.push(
      "The collection's pre-request script that signed requests (HMAC SHA256 over the parameters, setting signature and timestamp) is replaced by TradeReq's own signing (spec §5).",
    );
  const apiKeyHeader = [...apiKeyHeaders][0];
  if (apiKeyHeader !== undefined)
    for (const line of apiKeyAdvice(apiKeyHeader, profile, ctx.deployment)) comments.push(line);
  const description = keptText(group[0]!.scope.description, 'Postman: a folder description', notes);
  if (description.length > 0) comments.push(description);
  for (const i of inherited) {
    if (!hasScript(i.event) || isSigning(i.event)) continue;
    // Its checks are # @expect lines of each request (draftRequest).
    const kept = scriptAsChecks(i.event, i.owner, 'Postman', [], notes);
    if (kept === undefined) continue;
    comments.push(kept);
    notes.add(
      `the Postman ${scriptKind(i.event)} script of ${i.owner} ${keptNote(i.event)} (at the top of its files).`,
    );
  }
  return comments;
}

/** Names the generated files use but nothing defines: said once each. */
function undefinedVariables(
  files: readonly ImportedFile[],
  vars: VariableSets,
  env: ReturnType<typeof buildEnvironment>,
  notes: Notes,
): void {
  const defined = new Set<string>([
    ...vars.collection.map((v) => v.name),
    ...Object.values(env).flatMap((e) => Object.keys(e.variables ?? {})),
  ]);
  for (const f of files) {
    const doc = parse(f.text);
    const refs = [...doc.variableRefs, ...doc.requests.flatMap((r) => r.variableRefs)];
    for (const r of refs) {
      if (defined.has(r.name) || r.name.startsWith('$') || /\.response\./.test(r.name)) continue;
      defined.add(r.name);
      notes.add(
        vars.secrets.includes(r.name)
          ? `{{${r.name}}} refers to a secret, which is not copied: write the request without it (TradeReq sends the key from the key profile).`
          : `{{${r.name}}} is defined neither in the collection nor in the environment: define it in tradereq.env.json or as @${r.name} = value.`,
      );
    }
  }
}
