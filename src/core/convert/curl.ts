/**
 * A cURL command → one `.tradereq` request. The command is split into words by our own shell
 * splitter (or taken as words when the shell already split them), read as cURL reads its options,
 * and written with raw values: TradeReq percent-encodes strictly itself (docs/format.md).
 */
import { isLoopbackOrigin } from '../env/demo';
import { percentEncode } from '../signing/encode';
import { addParam, newRequest, params, sentContentType, type DraftRequest } from './draft';
import { readCurlArguments, type CurlCommand } from './curl-args';
import { ConvertError, checkInputSize, type ImportResult } from './import-result';
import { shellWords } from './shell-words';
import { apiKeyAdvice, applySigning } from './signing';
import { deploymentOfBase, environmentPlace, importCatalog } from './deployment-env';
import type { Deployment } from '../catalog/deployment';
import { credentialSetIn, isApiKeyHeader, isCredentialHeader, isCredentialName } from './credential-like';
import { Notes, splitPairs, type RawPair } from './common';
import { renderFile } from './write';

export interface CurlOptions {
  /** The environment's base URL: a URL under it is written as a path. */
  readonly baseUrl?: string;
  /** The key profile to name (default: from the host, e.g. `mexc` for api.mexc.com). */
  readonly keyProfile?: string;
}

const WHERE = 'the cURL command';

/** The words of the command, without a leading prompt `$` and the `curl` word, and the shell variables met. */
function commandWords(input: string | readonly string[], notes: Notes): { words: string[]; variables: string[] } {
  if (typeof input !== 'string') {
    checkInputSize('the cURL command', input.join(' '));
    const words = /(^|[/\\])curl(\.exe)?$/.test(input[0] ?? '') ? input.slice(1) : [...input];
    return { words, variables: [] };
  }
  checkInputSize('the cURL command', input);
  const split = shellWords(input);
  if (split.substitutions.length > 0)
    notes.add(`command substitutions cannot run here and are kept as written: ${split.substitutions.join(', ')}`);
  if (split.rest !== undefined)
    notes.add(
      `what follows the cURL command is not part of the request and is ignored${credentialSetIn(split.rest) === undefined ? `: ${split.rest.slice(0, 80)}` : ' (it sets a credential, not shown)'}.`,
    );
  if (split.ampersandInWord)
    notes.add('an unquoted & was read as part of the URL or data (a shell would end the command there: quote it).');
  const words = split.words[0] === '$' ? split.words.slice(1) : split.words;
  if (words.length === 0) throw new ConvertError('no cURL command: the input is empty');
  if (!/(^|[/\\])curl(\.exe)?$/.test(words[0]!))
    throw new ConvertError(`not a cURL command: it starts with ${JSON.stringify(words[0]!.slice(0, 40))}, not curl`);
  return { words: words.slice(1), variables: split.variables };
}

/** Shell variables that are still in the request (those in timestamp, signature or the API key went with them). */
function variablesNote(request: DraftRequest, variables: readonly string[], notes: Notes): void {
  const text = [
    request.target,
    request.json ?? '',
    ...request.headers.map((h) => h.value),
    ...params(request).map((p) => p.value),
  ].join(' ');
  const kept = [...new Set(variables)].filter((v) => text.includes(`{{${v}}}`));
  if (kept.length > 0)
    notes.add(
      `shell variables became TradeReq variables: ${kept.map((v) => `{{${v}}}`).join(', ')}; define them (never a secret) or write the values.`,
    );
}

interface Url {
  readonly origin: string;
  readonly path: string;
  readonly query: string;
  readonly host: string;
}

function parseUrl(raw: string, notes: Notes): Url {
  let text = raw.trim();
  if (!/^[A-Za-z][A-Za-z0-9+.-]*:\/\//.test(text)) {
    notes.add(`the URL has no scheme; cURL uses http://, and so does the request: ${text.slice(0, 80)}`);
    text = 'http://' + text;
  }
  const m = /^([A-Za-z][A-Za-z0-9+.-]*):\/\/([^/?#]*)([^?#]*)(?:\?([^#]*))?(?:#(.*))?$/s.exec(text);
  if (!m || !/^https?$/i.test(m[1]!) || m[2]!.length === 0)
    throw new ConvertError(`the URL ${JSON.stringify(raw.slice(0, 80))} is not an http:// or https:// URL`);
  let authority = m[2]!;
  if (authority.includes('@')) {
    notes.add('the user name and password in the URL are not copied.');
    authority = authority.slice(authority.lastIndexOf('@') + 1);
  }
  if (m[5] !== undefined) notes.add(`the URL fragment #${m[5].slice(0, 40)} is not sent by cURL and is left out.`);
  const origin = `${m[1]!.toLowerCase()}://${authority}`;
  const path = (m[3] || '/').replace(/ /g, '%20');
  return { origin, path, query: m[4] ?? '', host: authority.replace(/:\d+$/, '').toLowerCase() };
}

/** `api.mexc.com` → `mexc`; loopback → `sandbox` (the built-in profile with the demo key). */
export function profileFromHost(host: string): string {
  if (isLoopbackOrigin(`http://${host}`)) return 'sandbox';
  const labels = host.split('.').filter((l) => l.length > 0 && !/^(api|www)\d*$/.test(l));
  const name = labels.length >= 2 ? labels[labels.length - 2]! : (labels[0] ?? 'main');
  return /^[A-Za-z0-9][A-Za-z0-9_-]*$/.test(name) ? name.toLowerCase() : 'main';
}

/** The request line's target: a path under `baseUrl`, else the full URL. */
function target(url: Url, baseUrl: string | undefined, notes: Notes): string {
  const full = url.origin + url.path;
  if (baseUrl === undefined) return full;
  const base = baseUrl.replace(/\/+$/, '');
  if (full.toLowerCase().startsWith(base.toLowerCase() + '/')) return full.slice(base.length);
  if (full.toLowerCase() === base.toLowerCase()) return '/';
  notes.add(`the URL is not under the base URL ${base}; the request line keeps the full URL ${full}.`);
  return full;
}

export interface CurlRequest {
  readonly request: DraftRequest;
  readonly origin: string;
  readonly profile: string;
  /** The API key header the command sent (its value is never kept). */
  readonly apiKeyHeader?: string;
  /** The deployment whose host it talks to, when not the default. */
  readonly deployment?: Deployment;
}

/** The request of a cURL command; notes collect what was not carried over. */
export function readCurl(input: string | readonly string[], options: CurlOptions, notes: Notes): CurlRequest {
  const { words, variables } = commandWords(input, notes);
  const cmd = readCurlArguments(words);
  if (cmd.urls.length === 0) throw new ConvertError('the cURL command has no URL');
  if (cmd.urls.length > 1)
    throw new ConvertError(`the cURL command has ${cmd.urls.length} URLs: import one request at a time`);
  const url = parseUrl(cmd.urls[0]!, notes);
  const request = buildRequest(cmd, url, notes);
  const deployment = deploymentOfBase(options.baseUrl ?? url.origin);
  applySigning(request, url.path, WHERE, notes, importCatalog(deployment));
  const apiKeyHeader = readHeaders(cmd, request, notes);
  request.target = target(url, options.baseUrl, notes);
  variablesNote(request, variables, notes);
  for (const d of cmd.dropped) notes.add(`${d}.`);
  if (cmd.ignored.length > 0)
    notes.add(`cURL options with no counterpart in a request file are ignored: ${[...new Set(cmd.ignored)].join(' ')}`);
  const profile = options.keyProfile ?? profileFromHost(url.host);
  return {
    request,
    origin: url.origin,
    profile,
    ...(apiKeyHeader !== undefined ? { apiKeyHeader } : {}),
    ...(deployment ? { deployment } : {}),
  };
}

export function curlImport(input: string | readonly string[], options: CurlOptions = {}): ImportResult {
  const notes = new Notes();
  const { request, origin, profile, apiKeyHeader, deployment } = readCurl(input, options, notes);
  const comments = ['Imported from a cURL command by tradereq import.'];
  if (apiKeyHeader) for (const line of apiKeyAdvice(apiKeyHeader, profile, deployment)) comments.push(line);
  const text = renderFile({ comments, variables: [], blocks: [request] }, WHERE, notes);
  const environment = { [profile]: environmentPlace(options.baseUrl ?? origin, profile, apiKeyHeader || undefined) };
  return { files: [{ path: 'request.tradereq', text }], environment, notes: notes.list(), requestCount: 1 };
}

function methodOf(cmd: CurlCommand): string {
  const method = (cmd.method ?? (cmd.head ? 'HEAD' : cmd.get || cmd.data.length === 0 ? 'GET' : 'POST')).toUpperCase();
  if (!['GET', 'POST', 'PUT', 'DELETE'].includes(method))
    throw new ConvertError(`the service accepts GET, POST, PUT and DELETE (spec §4.1), not ${method}`);
  return method;
}

/** The request with its parameters (headers are read after): query string, then the data. */
function buildRequest(cmd: CurlCommand, url: Url, notes: Notes): DraftRequest {
  const method = methodOf(cmd);
  const request = newRequest(method, url.origin + url.path);
  request.title = `${method} ${url.path}`;
  const query = splitPairs(url.query);
  for (const p of query) addParam(request, p.name, p.value, 'query');
  const json = jsonData(cmd);
  if (json !== undefined) {
    if (cmd.get) throw new ConvertError('-G moves the data into the query string, but the data is a JSON body');
    request.json = json;
  } else {
    const body = formData(cmd, notes);
    for (const p of body) addParam(request, p.name, p.value, cmd.get ? 'query' : 'body');
    encodingNote([...query, ...body], notes);
  }
  if (cmd.form) notes.add('-F form fields (multipart) are sent as a form body (application/x-www-form-urlencoded).');
  return request;
}

/** The body when it is JSON: --json, a JSON Content-Type, or data that starts with `{`. */
function jsonData(cmd: CurlCommand): string | undefined {
  if (cmd.data.length === 0) return undefined;
  const text = cmd.data.map((d) => (d.kind === 'pair' ? `${d.name}=${d.value}` : d.text)).join('&');
  const declared = cmd.headers.some((h) => h.name.toLowerCase() === 'content-type' && /json/i.test(h.value));
  const isJson = cmd.data.some((d) => d.kind === 'json') || declared || text.trimStart().startsWith('{');
  if (!isJson) return undefined;
  if (!text.trimStart().startsWith('{'))
    throw new ConvertError('the JSON body is not a JSON object: TradeReq sends a JSON object or form parameters');
  return text;
}

function formData(cmd: CurlCommand, notes: Notes): RawPair[] {
  const out: RawPair[] = [];
  for (const d of cmd.data) {
    if (d.kind === 'pair') {
      out.push({
        name: d.name,
        value: d.value,
        raw: `${percentEncode(d.name)}=${percentEncode(d.value)}`,
        hasEquals: true,
      });
      continue;
    }
    for (const p of splitPairs(d.text.replace(/[\r\n]/g, ''))) {
      if (!p.hasEquals)
        notes.add(
          `the data segment ${JSON.stringify(p.raw.slice(0, 40))} has no "=": it is written as a parameter with an empty value.`,
        );
      out.push(p);
    }
  }
  return out;
}

/** Strict encoding may write a value differently from the source; say so, since totalParams follows. */
function encodingNote(pairs: readonly RawPair[], notes: Notes): void {
  // timestamp and signature go with signing, credentials are not copied: their values are not shown either.
  const differ = pairs.filter(
    (p) =>
      p.name !== 'signature' &&
      p.name !== 'timestamp' &&
      !isCredentialName(p.name) &&
      `${percentEncode(p.name)}=${percentEncode(p.value)}` !== p.raw,
  );
  if (differ.length === 0) return;
  const example = differ[0]!;
  notes.add(
    `${differ.length} parameter(s) will be percent-encoded differently from the source (TradeReq encodes strictly), e.g. ${example.raw.slice(0, 40)} is sent as ${percentEncode(example.name)}=${percentEncode(example.value).slice(0, 40)}: the service reads the same values, but totalParams differs from the source's.`,
  );
}

/** Headers into the request; the API key header, credentials and Content-Type are not copied. Returns the API key header's name. */
function readHeaders(cmd: CurlCommand, request: DraftRequest, notes: Notes): string | undefined {
  let apiKeyHeader: string | undefined;
  const bodyType = sentContentType(request);
  for (const h of cmd.headers) {
    const lower = h.name.toLowerCase();
    if (isApiKeyHeader(h.name)) apiKeyHeader ??= h.name;
    else if (isCredentialHeader(h.name)) notes.add(`the ${h.name} header is a credential and is not copied.`);
    else if (lower === 'content-type') {
      if (h.value.split(';')[0]!.trim().toLowerCase() !== bodyType)
        notes.add(
          `Content-Type ${h.value} is not copied: TradeReq sends ${bodyType} for this body (spec §4.1 rule 7).`,
        );
    } else if (lower === 'host') notes.add(`the Host header (${h.value}) is not copied: the URL names the host.`);
    else request.headers.push(h);
  }
  return apiKeyHeader;
}
