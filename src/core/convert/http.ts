/**
 * A `.http` / `.rest` file (REST Client, httpYac, JetBrains HTTP client) → one `.tradereq` file.
 * The format is close already (`###`, `{{variables}}`, `# @name`); the import moves variables
 * to the top, turns query strings and bodies into parameter lines, and keeps what has no
 * counterpart (scripts, other protocols, settings) as comments, each noted.
 */
import type { NamedEnvironment } from '../env/constants';
import { WS_METHOD } from '../format/model';
import { BaseMapper, importEnvironments } from './base-url';
import type { DraftFile, DraftRequest } from './draft';
import { BlockReader, type BlockContext } from './http-block';
import { profileFromHost, readCurl, type CurlRequest } from './curl';
import { ConvertError, IMPORT_LIMITS, checkInputSize, type ImportResult } from './import-result';
import { apiKeyAdvice, applySigning } from './signing';
import { deploymentOfBase, importCatalog } from './deployment-env';
import { DEFAULT_DEPLOYMENT, deploymentOf, type Deployment } from '../catalog/deployment';
import { Notes } from './common';
import { secondsNote } from './foreign-variables';
import { portableFileName, renderFile } from './write';

export interface HttpImportOptions {
  /** The name of the file written (default: the source's name with .tradereq for .http or .rest, else `imported.tradereq`). */
  readonly fileName?: string;
  /** The source file's name, for notes that give its line numbers (default "the .http file"). */
  readonly sourceName?: string;
  /**
   * The environments of the tradereq.env.json the written file uses (`environmentList`) and the
   * one it uses by default: a URL under one of their base URLs is written as a path (base-url.ts).
   */
  readonly environments?: { readonly list: readonly NamedEnvironment[]; readonly current: NamedEnvironment };
}

/** The file written for `options`, a name every system can hold (write.ts). */
function fileNameFor(options: HttpImportOptions): string {
  if (options.fileName !== undefined)
    return portableFileName(options.fileName.replace(/\.tradereq$/i, ''), '.tradereq');
  const base = options.sourceName?.replace(/\.(http|rest)$/i, '') ?? '';
  return portableFileName(base, '.tradereq');
}

interface Block {
  readonly title?: string;
  /** 1-based line of the block's first line (after its `###`). */
  readonly firstLine: number;
  readonly lines: string[];
}

function splitBlocks(text: string): Block[] {
  const blocks: Block[] = [{ firstLine: 1, lines: [] }];
  const lines = text.split(/\r?\n/);
  lines.forEach((line, i) => {
    const sep = /^\s*###+(.*)$/.exec(line);
    if (sep) {
      const title = sep[1]!.trim();
      blocks.push({ ...(title.length > 0 ? { title } : {}), firstLine: i + 2, lines: [] });
    } else blocks[blocks.length - 1]!.lines.push(line);
  });
  if (blocks.length > IMPORT_LIMITS.maxRequests)
    throw new ConvertError(`the file holds more than ${IMPORT_LIMITS.maxRequests} requests: split it`);
  return blocks;
}

export function httpImport(text: string, options: HttpImportOptions = {}): ImportResult {
  checkInputSize('the .http file', text);
  const fileName = fileNameFor(options);
  const notes = new Notes();
  const ctx: BlockContext = {
    notes,
    sourceName: options.sourceName ?? 'the .http file',
    variables: [],
    apiKeyHeaders: new Set(),
  };
  const file: DraftFile = { comments: ['Imported from a .http file by tradereq import.'], variables: [], blocks: [] };
  const requests: { request: DraftRequest; path: string | undefined }[] = [];
  let profile: string | undefined;
  splitBlocks(text).forEach((block, index) => {
    const result = new BlockReader(block.lines, block.firstLine, block.title, ctx).run();
    const curl = result.curl !== undefined ? curlRequest(result.curl, block, ctx.sourceName, notes) : undefined;
    if (curl?.apiKeyHeader) ctx.apiKeyHeaders.add(curl.apiKeyHeader);
    if (curl) profile ??= curl.profile;
    const found = curl ?? (result.request ? { request: result.request, path: result.path } : undefined);
    if (found) {
      requests.push(found);
      file.blocks.push(found.request);
    } else if (index === 0) for (const c of result.comments) file.comments.push(c);
    else if (result.comments.length > 0 || block.title !== undefined)
      file.blocks.push({ ...(block.title !== undefined ? { title: block.title } : {}), lines: result.comments });
  });
  if (requests.length === 0) throw new ConvertError('the .http file holds no request TradeReq can send');
  hoistVariables(ctx, file, notes);
  const known = options.environments;
  const bases = new BaseMapper(known ? importEnvironments(known.list, known.current) : [], notes);
  const values = new Map(file.variables.map((v) => [v.name, v.value]));
  const deployment = fileDeployment(requests, known?.current);
  for (const { request, path } of requests) {
    const where = `${ctx.sourceName}: "${request.title ?? request.target}"`;
    if (request.method !== WS_METHOD)
      applySigning(request, path ?? variablePath(request, values), where, notes, importCatalog(deployment));
    secondsNote(request, 'the .http file', where, notes);
    asPath(request, values, bases);
  }
  const apiKeyHeader = [...ctx.apiKeyHeaders][0];
  if (apiKeyHeader)
    for (const line of apiKeyAdvice(apiKeyHeader, profile ?? profileFor(file, requests), deployment))
      file.comments.push(line);
  const out = renderFile(file, fileName, notes);
  return { files: [{ path: fileName, text: out }], notes: notes.list(), requestCount: requests.length };
}

/**
 * The deployment the file talks to: the one whose host its first absolute URL names, else the
 * deployment of the environment it will use; undefined for the default.
 */
function fileDeployment(
  requests: readonly { readonly request: DraftRequest }[],
  current: NamedEnvironment | undefined,
): Deployment | undefined {
  for (const { request } of requests) {
    const named = /^https?:\/\//i.test(request.target) ? deploymentOfBase(request.target) : undefined;
    if (named) return named;
  }
  const d = current ? deploymentOf(current) : undefined;
  return d === DEFAULT_DEPLOYMENT ? undefined : d;
}

/** A cURL command in a block (REST Client reads them): imported like `tradereq import curl`. */
function curlRequest(
  text: string,
  block: Block,
  sourceName: string,
  notes: Notes,
): (CurlRequest & { path: string | undefined }) | undefined {
  try {
    const curl = readCurl(text, {}, notes);
    if (block.title !== undefined) curl.request.title = block.title;
    const path = /^https?:\/\/[^/]+(\/[^?#]*)?/.exec(curl.request.target)?.[1];
    return { ...curl, path };
  } catch (e) {
    if (!(e instanceof ConvertError)) throw e;
    notes.add(`${sourceName}:${block.firstLine}: a cURL command could not be read (${e.message}); it is left out.`);
    return undefined;
  }
}

/** `@name = value` lines from anywhere, at the top; a later different value of the same name cannot be kept. */
function hoistVariables(ctx: BlockContext, file: DraftFile, notes: Notes): void {
  const seen = new Map<string, string>();
  for (const v of ctx.variables) {
    const before = seen.get(v.name);
    if (before === undefined) {
      seen.set(v.name, v.value);
      file.variables.push({ name: v.name, value: v.value });
    } else if (before !== v.value) {
      notes.add(
        `${ctx.sourceName}:${v.line}: @${v.name} is defined again with another value; TradeReq's file variables are one per file, so the first value is kept.`,
      );
      file.comments.push(`variable left out (defined again): @${v.name} = ${v.value}`);
    }
  }
}

/** A target under an environment's base URL (written out, or through a file variable) as a path. */
function asPath(request: DraftRequest, values: ReadonlyMap<string, string>, bases: BaseMapper): void {
  const m = /^\{\{\s*([^{}\s]+)\s*\}\}(.*)$/.exec(request.target);
  const value = m ? values.get(m[1]!) : undefined;
  const url = m ? (value === undefined || value.includes('{{') ? undefined : value.trim() + m[2]!) : request.target;
  if (url === undefined) return;
  const through = m ? { name: m[1]!, value: value!.trim() } : undefined;
  // `WS {{host}}/ws` with an http(s) host connects to its ws(s) counterpart (docs/websocket.md, Address).
  const path =
    request.method === WS_METHOD ? bases.ws(url.replace(/^http(s?):/i, 'ws$1:'), through) : bases.http(url, through);
  if (path !== undefined) request.target = path;
}

/** The path of `{{host}}/api/v3/order` when `host` is a file variable holding an http(s) URL. */
function variablePath(request: DraftRequest, values: ReadonlyMap<string, string>): string | undefined {
  const m = /^\{\{\s*([^{}\s]+)\s*\}\}(\/[^{]*)?$/.exec(request.target);
  const value = m ? values.get(m[1]!) : undefined;
  return value && /^https?:\/\//i.test(value) ? (m![2] ?? '/') : undefined;
}

function profileFor(file: DraftFile, requests: readonly { request: DraftRequest }[]): string {
  const url = [...requests.map((r) => r.request.target), ...file.variables.map((v) => v.value)].find((t) =>
    /^https?:\/\//i.test(t),
  );
  const host = url ? /^https?:\/\/([^/:?#]+)/i.exec(url)?.[1] : undefined;
  return host ? profileFromHost(host) : 'main';
}
