/**
 * `tradereq import curl|postman|http`: reads the input, runs the pure importer of
 * src/core/convert/, writes the files (never over existing ones without --force) and prints what
 * was not carried over on standard error.
 */
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { BOUNDS, formatSize } from '../core/bounds';
import { PROFILE_NAME_PATTERN } from '../core/env/keys';
import { ENV_FILE_NAME } from '../core/env/constants';
import { chooseEnvironment, envFileCandidates, environmentList } from '../core/env/lookup';
import { parseEnvironmentFile, type EnvironmentFile } from '../core/env/schema';
import type { Result } from '../core/result';
import {
  IMPORT_LIMITS,
  importCurl,
  importHttpFile,
  importPostman,
  type HttpImportOptions,
  type ImportResult,
} from '../core/convert';
import { parseCommand } from './args';
import { readStdin } from './stdin';
import { UsageError, type Io } from './usage';

export const IMPORT_HELP = `Usage: tradereq import curl [--base-url URL] [--key PROFILE] [-- CURL ARGUMENTS...]
       tradereq import postman FILE [--environment ENVFILE] --out DIR [--force]
       tradereq import http FILE [--out FILE] [--force]

Turns requests written for other tools into .tradereq files. What could not be carried over as
it was (scripts, settings, secrets, parameters left out) is listed on standard error; secrets are
never copied: the import says which key profile to create instead.

  curl      a cURL command, after -- or on standard input, printed as a .tradereq request.
            signature and timestamp are dropped (TradeReq adds its own), the API key header
            becomes the environment's key profile.
    --base-url URL   write the path when the URL is under this base URL
    --key PROFILE    the key profile to name (default: from the host, e.g. mexc for api.mexc.com)
  postman   a Postman collection v2.1: one file per folder in DIR, and tradereq.env.json from
            the collection's base URL and the environment's variables (never its secrets).
            URLs under the base URL become paths; pm.test checks of the status and of JSON
            fields become # @expect lines.
    --environment ENVFILE   a Postman environment export
    --out DIR               the folder to write into (created when missing)
  http      a .http / .rest file (REST Client, httpYac, JetBrains HTTP client); WS and
            WEBSOCKET requests become WebSocket requests. URLs under the base URL (or wsUrl)
            of an environment of the tradereq.env.json the written file uses become paths.
    --out FILE              write the .tradereq file here instead of standard output
  --force   overwrite existing files
  -h, --help   this help

Input is bounded to ${IMPORT_LIMITS.maxInputChars / 1024 / 1024} MiB and ${IMPORT_LIMITS.maxRequests} requests, a request to ${BOUNDS.paramsPerRequest} parameters and ${BOUNDS.headersPerRequest} headers.
Bad input (not JSON, an unknown collection version, a cURL command that does not parse, a
request past a bound) prints one line and exits 2.

Exit codes: 0 imported (what was left out is listed on standard error); 2 bad input or a file that
exists (nothing written).`;

export async function importCommand(args: string[], io: Io): Promise<number> {
  const [kind, ...rest] = args;
  if (kind === undefined || kind === '--help' || kind === '-h') {
    if (kind === undefined)
      throw new UsageError('import needs what to import: curl, postman or http. See: tradereq import --help');
    io.out(IMPORT_HELP);
    return 0;
  }
  switch (kind) {
    case 'curl':
      return await importCurlCommand(rest, io);
    case 'postman':
      return importPostmanCommand(rest, io);
    case 'http':
      return importHttpCommand(rest, io);
    default:
      throw new UsageError(`cannot import "${kind}": use curl, postman or http. See: tradereq import --help`);
  }
}

async function importCurlCommand(args: string[], io: Io): Promise<number> {
  const dashes = args.indexOf('--');
  const flags = dashes < 0 ? args : args.slice(0, dashes);
  const { values, positionals } = parseCommand('import', flags, {
    'base-url': { type: 'string' },
    key: { type: 'string' },
  });
  if (values.help) {
    io.out(IMPORT_HELP);
    return 0;
  }
  if (positionals.length > 0)
    throw new UsageError('give the cURL command after -- (tradereq import curl -- curl ...) or on standard input');
  const baseUrl = values['base-url'];
  if (baseUrl !== undefined && !/^https?:\/\/[^\s/?#]+(\/[^\s?#]*)?$/.test(baseUrl))
    throw new UsageError(
      `--base-url must be an http:// or https:// URL such as https://api.example.com, not "${baseUrl}"`,
    );
  if (values.key !== undefined && !PROFILE_NAME_PATTERN.test(values.key))
    throw new UsageError('--key names a key profile: letters, digits, "-" and "_"');
  const input =
    dashes >= 0
      ? args.slice(dashes + 1)
      : await readStdin({
          maxBytes: IMPORT_LIMITS.maxInputChars,
          onTerminal: 'give the cURL command after -- (tradereq import curl -- curl ...) or pipe it on standard input',
          tooLong: 'the cURL command on standard input is too long to import',
        });
  const result = converted(undefined, importCurl(input, { baseUrl, keyProfile: values.key }));
  io.out(result.files[0]!.text);
  report(io, result, 'Imported 1 request from the cURL command.');
  return 0;
}

function readInput(path: string, io: Io): string {
  const full = resolve(io.cwd, path);
  try {
    const stat = statSync(full);
    if (stat.isDirectory()) throw new UsageError(`${path} is a folder: name a file`);
    if (stat.size > IMPORT_LIMITS.maxInputChars * 4)
      throw new UsageError(`${path} is too large to import (${stat.size} bytes)`);
    return readFileSync(full, 'utf8');
  } catch (e) {
    if (e instanceof UsageError) throw e;
    const code = (e as NodeJS.ErrnoException).code;
    throw new UsageError(
      code === 'ENOENT' ? `${path}: no such file` : `${path}: cannot read it (${code ?? String(e)})`,
    );
  }
}

/** An import's result, or its failure as one line of bad input (naming the file, when there is one). */
function converted(path: string | undefined, result: Result<ImportResult, string>): ImportResult {
  if (result.ok) return result.value;
  throw new UsageError(path === undefined ? result.error : `${path}: ${result.error}`);
}

function importPostmanCommand(args: string[], io: Io): number {
  const { values, positionals } = parseCommand('import', args, {
    environment: { type: 'string' },
    out: { type: 'string' },
    force: { type: 'boolean' },
  });
  if (values.help) {
    io.out(IMPORT_HELP);
    return 0;
  }
  if (positionals.length !== 1)
    throw new UsageError('import postman takes one collection FILE. See: tradereq import --help');
  if (values.out === undefined)
    throw new UsageError('import postman needs --out DIR, the folder to write the files into');
  const collectionPath = positionals[0]!;
  const collection = readInput(collectionPath, io);
  const envPath = values.environment;
  const environment = envPath !== undefined ? readInput(envPath, io) : undefined;
  const result =
    environment === undefined
      ? converted(collectionPath, importPostman(collection))
      : converted(`${collectionPath} with ${envPath!}`, importPostman(collection, environment));
  const files = [...result.files];
  if (result.environment && Object.keys(result.environment).length > 0)
    files.push({ path: ENV_FILE_NAME, text: JSON.stringify(result.environment, null, 2) + '\n' });
  writeAll(resolve(io.cwd, values.out), files, values.force === true);
  report(
    io,
    result,
    `Imported ${result.requestCount} requests into ${values.out}: ${files.map((f) => f.path).join(', ')}`,
  );
  return 0;
}

function importHttpCommand(args: string[], io: Io): number {
  const { values, positionals } = parseCommand('import', args, { out: { type: 'string' }, force: { type: 'boolean' } });
  if (values.help) {
    io.out(IMPORT_HELP);
    return 0;
  }
  if (positionals.length !== 1)
    throw new UsageError('import http takes one .http or .rest FILE. See: tradereq import --help');
  const path = positionals[0]!;
  const text = readInput(path, io);
  // Without --out, the importer names the file after the source (a name every system can hold).
  const named = values.out !== undefined ? { fileName: basename(values.out) } : {};
  const folder = values.out !== undefined ? dirname(resolve(io.cwd, values.out)) : io.cwd;
  const environments = environmentsFor(folder, io);
  const result = converted(path, importHttpFile(text, { ...named, sourceName: basename(path), environments }));
  if (values.out === undefined) {
    io.out(result.files[0]!.text);
    report(io, result, `Imported ${result.requestCount} requests from ${path}.`);
    return 0;
  }
  const out = resolve(io.cwd, values.out);
  writeAll(resolve(out, '..'), [{ path: basename(out), text: result.files[0]!.text }], values.force === true);
  report(io, result, `Imported ${result.requestCount} requests into ${values.out}.`);
  return 0;
}

/**
 * The environments a file written into `folder` can run against, as `send` would find them (the
 * nearest tradereq.env.json, TRADEREQ_ENV): URLs under their base URLs are written as paths.
 */
function environmentsFor(folder: string, io: Io): HttpImportOptions['environments'] {
  const envPath = envFileCandidates(folder, dirname, join).find((candidate) => existsSync(candidate));
  let entries: EnvironmentFile | undefined;
  if (envPath !== undefined) {
    if (statSync(envPath).size > BOUNDS.envFileBytes)
      throw new UsageError(
        `${envPath} is larger than TradeReq reads (${formatSize(BOUNDS.envFileBytes)}): it names environments and should be small`,
      );
    const parsed = parseEnvironmentFile(readFileSync(envPath, 'utf8'));
    if (!parsed.ok) throw new UsageError(`${envPath}: ${parsed.error}`);
    entries = parsed.value;
  }
  const where = envPath ?? folder;
  const current = chooseEnvironment(entries, io.env['TRADEREQ_ENV'], where);
  const chosen = current.ok ? current : chooseEnvironment(entries, undefined, where);
  return chosen.ok ? { list: environmentList(entries), current: chosen.value } : undefined;
}

/** Writes every file, after checking that none exists (unless forced): all or nothing. */
function writeAll(dir: string, files: readonly { path: string; text: string }[], force: boolean): void {
  if (!force) {
    const existing = files.map((f) => join(dir, f.path)).filter((p) => existsSync(p));
    if (existing.length > 0)
      throw new UsageError(
        `${existing[0]} exists: choose another output or add --force to overwrite${existing.length > 1 ? ` (and ${existing.length - 1} more)` : ''}`,
      );
  }
  try {
    mkdirSync(dir, { recursive: true });
    for (const f of files) writeFileSync(join(dir, f.path), f.text, 'utf8');
  } catch (e) {
    throw new UsageError(`cannot write into ${dir} (${(e as NodeJS.ErrnoException).code ?? String(e)})`);
  }
}

/** The summary on standard error: what was written, then what was not carried over as it was. */
function report(io: Io, result: ImportResult, headline: string): void {
  const lines = [headline];
  if (result.notes.length > 0) {
    lines.push(`Not carried over as it was (${result.notes.length}):`);
    for (const n of result.notes) lines.push(`  - ${n}`);
  }
  io.err(lines.join('\n'));
}
