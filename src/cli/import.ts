/**
 * `tradereq import curl|postman|http`: reads the input, runs the pure importer of
 * src/core/convert/, writes the files (never over existing ones without --force) and prints what
 * was not carried over on standard error.
 */
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { BOUNDS } from '../core/bounds';
import { PROFILE_NAME_PATTERN } from '../core/env/keys';
import { ENV_FILE_NAME } from '../core/env/constants';
import { chooseEnvironment, environmentList } from '../core/env/lookup';
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
import { IMPORT, INPUT, OPTIONS } from './messages';
import { readStdin } from './stdin';
import { UsageError, type Io } from './usage';
import { findEnvironmentFile, readEnvironmentFile } from './workspace';

function importHelp(): string {
  const { maxInputChars, maxRequests } = IMPORT_LIMITS;
  const { paramsPerRequest: maxParams, headersPerRequest: maxHeaders } = BOUNDS;
  return IMPORT.help({ maxInputMiB: maxInputChars / 1024 / 1024, maxRequests, maxParams, maxHeaders });
}

export async function importCommand(args: string[], io: Io): Promise<number> {
  const [kind, ...rest] = args;
  if (kind === undefined || kind === '--help' || kind === '-h') {
    if (kind === undefined) throw new UsageError(IMPORT.needsKind);
    io.out(importHelp());
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
      throw new UsageError(IMPORT.unknownKind(kind));
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
    io.out(importHelp());
    return 0;
  }
  if (positionals.length > 0) throw new UsageError(IMPORT.curlAfterDashes);
  const baseUrl = values['base-url'];
  if (baseUrl !== undefined && !/^https?:\/\/[^\s/?#]+(\/[^\s?#]*)?$/.test(baseUrl))
    throw new UsageError(IMPORT.baseUrl(baseUrl));
  if (values.key !== undefined && !PROFILE_NAME_PATTERN.test(values.key)) throw new UsageError(OPTIONS.keyProfile);
  const input =
    dashes >= 0
      ? args.slice(dashes + 1)
      : await readStdin({
          maxBytes: IMPORT_LIMITS.maxInputChars,
          onTerminal: IMPORT.curlOnTerminal,
          tooLong: IMPORT.curlTooLong,
        });
  const result = converted(undefined, importCurl(input, { baseUrl, keyProfile: values.key }));
  io.out(result.files[0]!.text);
  report(io, result, IMPORT.importedCurl);
  return 0;
}

function readInput(path: string, io: Io): string {
  const full = resolve(io.cwd, path);
  try {
    const stat = statSync(full);
    if (stat.isDirectory()) throw new UsageError(INPUT.folderNotFile(path));
    if (stat.size > IMPORT_LIMITS.maxInputChars * 4) throw new UsageError(IMPORT.tooLarge(path, stat.size));
    return readFileSync(full, 'utf8');
  } catch (e) {
    if (e instanceof UsageError) throw e;
    const code = (e as NodeJS.ErrnoException).code;
    throw new UsageError(code === 'ENOENT' ? INPUT.noSuchFile(path) : INPUT.cannotRead(path, code ?? String(e)));
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
    io.out(importHelp());
    return 0;
  }
  if (positionals.length !== 1) throw new UsageError(IMPORT.postmanTakesOneFile);
  if (values.out === undefined) throw new UsageError(IMPORT.postmanNeedsOut);
  const collectionPath = positionals[0]!;
  const collection = readInput(collectionPath, io);
  const envPath = values.environment;
  const environment = envPath !== undefined ? readInput(envPath, io) : undefined;
  const result =
    environment === undefined
      ? converted(collectionPath, importPostman(collection))
      : converted(IMPORT.withEnvironment(collectionPath, envPath!), importPostman(collection, environment));
  const files = [...result.files];
  if (result.environment && Object.keys(result.environment).length > 0)
    files.push({ path: ENV_FILE_NAME, text: JSON.stringify(result.environment, null, 2) + '\n' });
  writeAll(resolve(io.cwd, values.out), files, values.force === true);
  const written = files.map((f) => f.path);
  report(io, result, IMPORT.importedInto(result.requestCount, values.out, written));
  return 0;
}

function importHttpCommand(args: string[], io: Io): number {
  const { values, positionals } = parseCommand('import', args, { out: { type: 'string' }, force: { type: 'boolean' } });
  if (values.help) {
    io.out(importHelp());
    return 0;
  }
  if (positionals.length !== 1) throw new UsageError(IMPORT.httpTakesOneFile);
  const path = positionals[0]!;
  const text = readInput(path, io);
  // Without --out, the importer names the file after the source (a name every system can hold).
  const named = values.out !== undefined ? { fileName: basename(values.out) } : {};
  const folder = values.out !== undefined ? dirname(resolve(io.cwd, values.out)) : io.cwd;
  const environments = environmentsFor(folder, io);
  const result = converted(path, importHttpFile(text, { ...named, sourceName: basename(path), environments }));
  if (values.out === undefined) {
    io.out(result.files[0]!.text);
    report(io, result, IMPORT.importedFrom(result.requestCount, path));
    return 0;
  }
  const out = resolve(io.cwd, values.out);
  writeAll(resolve(out, '..'), [{ path: basename(out), text: result.files[0]!.text }], values.force === true);
  report(io, result, IMPORT.importedIntoFile(result.requestCount, values.out));
  return 0;
}

/**
 * The environments a file written into `folder` can run against, as `send` would find them (the
 * nearest tradereq.env.json, TRADEREQ_ENV): URLs under their base URLs are written as paths.
 */
function environmentsFor(folder: string, io: Io): HttpImportOptions['environments'] {
  const envPath = findEnvironmentFile(folder);
  const entries = envPath !== undefined ? readEnvironmentFile(envPath) : undefined;
  const where = envPath ?? folder;
  const current = chooseEnvironment(entries, io.env['TRADEREQ_ENV'], where);
  const chosen = current.ok ? current : chooseEnvironment(entries, undefined, where);
  return chosen.ok ? { list: environmentList(entries), current: chosen.value } : undefined;
}

/** Writes every file, after checking that none exists (unless forced): all or nothing. */
function writeAll(dir: string, files: readonly { path: string; text: string }[], force: boolean): void {
  if (!force) {
    const existing = files.map((f) => join(dir, f.path)).filter((p) => existsSync(p));
    if (existing.length > 0) throw new UsageError(IMPORT.exists(existing[0]!, existing.length - 1));
  }
  try {
    mkdirSync(dir, { recursive: true });
    for (const f of files) writeFileSync(join(dir, f.path), f.text, 'utf8');
  } catch (e) {
    throw new UsageError(IMPORT.cannotWrite(dir, (e as NodeJS.ErrnoException).code ?? String(e)));
  }
}

/** The summary on standard error: what was written, then what was not carried over as it was. */
function report(io: Io, result: ImportResult, headline: string): void {
  const notes = result.notes.length > 0 ? IMPORT.notCarriedOver(result.notes) : [];
  io.err([headline, ...notes].join('\n'));
}
