/**
 * `tradereq init [DIR]`: writes the starter (media/starter/, listed in core/env/starter.ts) into
 * DIR: a tradereq.env.json with a sandbox and a live environment, and request files that pass
 * `tradereq test --sandbox` as written. Never over an existing file without --force, never
 * through a link or over a folder, and all or nothing: every target is checked before one is written.
 */
import { lstatSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { ENV_FILE_NAME } from '../core/env/constants';
import { profileEnvPrefix } from '../core/env/keys';
import { STARTER_FILES, STARTER_PATH, STARTER_REQUESTS } from '../core/env/starter';
import { parseCommand } from './args';
import { UsageError, type Io } from './usage';

const INIT_HELP = `Usage: tradereq init [DIR] [--force]

Writes a starter into DIR (default the current folder; made when missing): ${ENV_FILE_NAME} with
the environments "sandbox" (the sandbox exchange on loopback, with its demo key) and "live" (asks
before every order), and the request files
${STARTER_REQUESTS.map((f) => f.name).join(', ')}.
They hold no key and no secret, and pass tradereq test --sandbox as written.

  --force      overwrite those files where DIR has them (DIR's other files are never touched)
  -h, --help   this help

Without --force nothing is written when any of those files exists. A folder or a link in the
place of one of them is never written over, even with --force.

Exit codes: 0 the starter was written; 2 bad input: a file exists (nothing written), DIR is not a
folder, or a file could not be written (the message names those written before it).`;

const INIT_OPTIONS = { force: { type: 'boolean' } } as const;

interface Starter {
  readonly name: string;
  readonly text: string;
}

export function initCommand(args: string[], io: Io): number {
  const { values, positionals } = parseCommand('init', args, INIT_OPTIONS);
  if (values.help) {
    io.out(INIT_HELP);
    return 0;
  }
  if (positionals.length > 1) throw new UsageError('init takes one DIR at most. See: tradereq init --help');
  const dir = resolve(io.cwd, positionals[0] ?? '.');
  const shown = (path: string): string => shownPath(io.cwd, path);
  const files = readStarter();
  checkTargets(dir, files, values.force === true, shown);
  writeStarter(dir, files, values.force === true, shown);
  io.out(summary(dir, files, shown));
  return 0;
}

/** `path` from `cwd` when it lies under it ("." for cwd itself), else in full. */
function shownPath(cwd: string, path: string): string {
  const r = relative(cwd, path);
  return r === '' ? '.' : r.startsWith('..') || isAbsolute(r) ? path : r;
}

/** The starter's files as the package carries them (dist/cli/init.js and src/cli/init.ts both sit two folders down). */
function readStarter(): Starter[] {
  const folder = join(__dirname, '..', '..', ...STARTER_PATH);
  return STARTER_FILES.map((f) => {
    try {
      // Written with \n whatever a checkout on Windows made of the line endings.
      return { name: f.name, text: readFileSync(join(folder, f.name), 'utf8').replace(/\r\n?/g, '\n') };
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code ?? String(e);
      throw new UsageError(
        `the starter is missing from this installation (${join(folder, f.name)}: ${code}): reinstall tradereq`,
      );
    }
  });
}

/** Every target checked before anything is written: a file there stops the run unless forced; a folder or link always. */
function checkTargets(dir: string, files: readonly Starter[], force: boolean, shown: (p: string) => string): void {
  const folder = statSync(dir, { throwIfNoEntry: false });
  if (folder && !folder.isDirectory())
    throw new UsageError(`${shown(dir)} is not a folder: name a folder (it is made when missing)`);
  const existing: string[] = [];
  for (const f of files) {
    const target = join(dir, f.name);
    const there = lstatSync(target, { throwIfNoEntry: false });
    if (!there) continue;
    if (!there.isFile())
      throw new UsageError(
        `${shown(target)} is ${there.isDirectory() ? 'a folder' : there.isSymbolicLink() ? 'a link' : 'not a plain file'}: nothing was written (the starter writes plain files only, never through a link). Move it, or name another folder: tradereq init DIR`,
      );
    existing.push(shown(target));
  }
  if (existing.length > 0 && !force)
    throw new UsageError(
      `${existing[0]} exists${existing.length > 1 ? ` (and ${existing.length - 1} more of the starter's files)` : ''}: nothing was written. Name another folder (tradereq init DIR), or add --force to overwrite the starter's files`,
    );
}

function writeStarter(dir: string, files: readonly Starter[], force: boolean, shown: (p: string) => string): void {
  const written: string[] = [];
  let current = dir;
  try {
    mkdirSync(dir, { recursive: true });
    for (const f of files) {
      current = join(dir, f.name);
      // 'wx' fails on anything that appeared since the check, a dangling link included.
      writeFileSync(current, f.text, { encoding: 'utf8', flag: force ? 'w' : 'wx' });
      written.push(shown(current));
    }
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? String(e);
    const before = written.length > 0 ? `; written before it: ${written.join(', ')}` : '; nothing was written';
    throw new UsageError(`cannot write ${shown(current)} (${code})${before}`);
  }
}

/** What was written, and the next commands: run the tests, watch a stream, then bring one's own key. */
function summary(dir: string, files: readonly Starter[], shown: (p: string) => string): string {
  const width = Math.max(...files.map((f) => f.name.length)) + 2;
  const lines = [`Wrote the starter into ${shown(dir)}:`];
  for (const f of STARTER_FILES) lines.push(`  ${f.name.padEnd(width)}${f.shows}`);
  lines.push('', 'Next:');
  const place = shown(dir);
  if (place !== '.') lines.push(`  cd ${/^[\w./\\:-]+$/.test(place) ? place : `"${place}"`}`);
  const step = (command: string, what: string): string => `  ${command.padEnd(34)}${what}`;
  lines.push(
    step('tradereq test --sandbox', 'every request, against a sandbox of its own: no account, no secret'),
    step('tradereq sandbox', 'the sandbox on loopback for send and listen; in another terminal:'),
    step('tradereq listen stream.tradereq', 'its best bid and ask'),
  );
  const key = ownKey(files);
  if (key.length > 0) lines.push('', ...key);
  return lines.join('\n');
}

/** How to use one's own key with the environment that asks before orders (docs/guide.md, "Keys"). */
function ownKey(files: readonly Starter[]): string[] {
  const { parseEnvironmentFile } = require('../core/env/schema') as typeof import('../core/env/schema');
  const parsed = parseEnvironmentFile(files.find((f) => f.name === ENV_FILE_NAME)?.text ?? '');
  const live = parsed.ok ? Object.entries(parsed.value).find(([, env]) => env.confirm === true) : undefined;
  const key = live?.[1].key;
  if (!live || key === undefined) return [];
  const [name, env] = live;
  const prefix = profileEnvPrefix(key);
  return [
    `Your own key, for the "${name}" environment (docs/guide.md, "Keys"):`,
    `  1. set its baseUrl in ${ENV_FILE_NAME} to the service's address (now ${env.baseUrl})`,
    `  2. set ${prefix}API_KEY, ${prefix}SECRET_KEY and ${prefix}ORIGINS=<that address>`,
    `     (in VS Code: TradeReq: Add API Key, profile "${key}")`,
    `  3. tradereq sign orders.tradereq --env ${name} --request buy   (the signed order; nothing is sent)`,
  ];
}
