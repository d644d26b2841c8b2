/**
 * `tradereq init [DIR] [--deployment spec|mexc]`: writes the starter (media/starter/, listed in
 * core/env/starter.ts) into DIR: a tradereq.env.json with a sandbox and a live environment (of
 * the deployment named), and request files that pass `tradereq test --sandbox` as written. Never over an existing file without --force, never
 * through a link or over a folder, and all or nothing: every target is checked before one is written.
 */
import { isAbsolute, join, relative, resolve } from 'node:path';
import { deploymentById } from '../core/catalog/deployment';
import { ENV_FILE_NAME } from '../core/env/constants';
import { profileEnvPrefix } from '../core/env/keys';
import {
  STARTER_DEPLOYMENTS,
  STARTER_REQUESTS,
  starterFiles,
  type StarterDeployment,
  type StarterFile,
} from '../core/env/starter';
import { checkStarterFolder, readStarterFiles, writeStarterFiles, type StarterText } from '../core/env/write-starter';
import { parseCommand } from './args';
import { INIT } from './messages';
import { UsageError, type Io } from './usage';

const INIT_OPTIONS = { force: { type: 'boolean' }, deployment: { type: 'string' } } as const;

type Starter = StarterText;

export function initCommand(args: string[], io: Io): number {
  const { values, positionals } = parseCommand('init', args, INIT_OPTIONS);
  if (values.help) {
    const requestFiles = STARTER_REQUESTS.map((f) => f.name);
    io.out(INIT.help({ envFile: ENV_FILE_NAME, requestFiles, deployments: STARTER_DEPLOYMENTS }));
    return 0;
  }
  if (positionals.length > 1) throw new UsageError(INIT.oneFolder);
  const deployment = starterDeployment(values.deployment);
  const dir = resolve(io.cwd, positionals[0] ?? '.');
  const shown = (path: string): string => shownPath(io.cwd, path);
  const listed = starterFiles(deployment);
  const files = readStarter(listed);
  checkTargets(dir, files, values.force === true, shown);
  writeStarter(dir, files, values.force === true, shown);
  io.out(summary(dir, files, listed, deployment, shown));
  return 0;
}

/** The deployment the starter is for: --deployment's, the spec's when none is given. */
function starterDeployment(given: string | undefined): StarterDeployment {
  if (given === undefined) return 'spec';
  const found = STARTER_DEPLOYMENTS.find((d) => d === given);
  if (found === undefined) throw new UsageError(INIT.unknownDeployment(given, STARTER_DEPLOYMENTS));
  return found;
}

/** `path` from `cwd` when it lies under it ("." for cwd itself), else in full. */
function shownPath(cwd: string, path: string): string {
  const r = relative(cwd, path);
  return r === '' ? '.' : r.startsWith('..') || isAbsolute(r) ? path : r;
}

/** The starter's files as the package carries them (dist/cli/init.js and src/cli/init.ts both sit two folders down). */
function readStarter(listed: readonly StarterFile[]): Starter[] {
  const read = readStarterFiles(join(__dirname, '..', '..'), listed);
  if (!read.ok) throw new UsageError(INIT.starterMissing(read.error.path, read.error.code));
  return read.value;
}

/** Every target checked before anything is written: a file there stops the run unless forced; a folder or link always. */
function checkTargets(dir: string, files: readonly Starter[], force: boolean, shown: (p: string) => string): void {
  const names = files.map((f) => f.name);
  const check = checkStarterFolder(dir, names);
  if (check.kind === 'not-a-folder') throw new UsageError(INIT.notAFolder(shown(dir)));
  if (check.kind === 'in-the-way') throw new UsageError(INIT.inTheWay(shown(check.path), check.what));
  const existing = check.existing.map(shown);
  if (existing.length > 0 && !force) throw new UsageError(INIT.exists(existing[0]!, existing.length - 1));
}

function writeStarter(dir: string, files: readonly Starter[], force: boolean, shown: (p: string) => string): void {
  const done = writeStarterFiles(dir, files, force);
  if (!done.ok) {
    const { path, code, written } = done.error;
    throw new UsageError(INIT.cannotWrite(shown(path), code, written.map(shown)));
  }
}

/** What was written, and the next commands: run the tests, watch a stream, then bring one's own key. */
function summary(
  dir: string,
  files: readonly Starter[],
  listed: readonly StarterFile[],
  deployment: StarterDeployment,
  shown: (p: string) => string,
): string {
  const place = shown(dir);
  const cd = place === '.' ? undefined : /^[\w./\\:-]+$/.test(place) ? place : `"${place}"`;
  return INIT.summary({ folder: place, files: listed, cd, ownKey: ownKey(files), deployment });
}

/** How to use one's own key with the environment that asks before orders (docs/guide.md, "Keys"). */
function ownKey(files: readonly Starter[]): string[] {
  const { parseEnvironmentFile } = require('../core/env/schema') as typeof import('../core/env/schema');
  const parsed = parseEnvironmentFile(files.find((f) => f.name === ENV_FILE_NAME)?.text ?? '');
  const live = parsed.ok ? Object.entries(parsed.value).find(([, env]) => env.confirm === true) : undefined;
  const key = live?.[1].key;
  if (!live || key === undefined) return [];
  const [environment, env] = live;
  const prefix = profileEnvPrefix(key);
  // A deployment with an address of its own needs none written: the file names the deployment.
  const deployment = env.deployment === undefined ? undefined : deploymentById(env.deployment);
  const own = deployment?.baseUrl !== undefined ? { deployment: deployment.id } : {};
  return INIT.ownKey({ environment, envFile: ENV_FILE_NAME, baseUrl: env.baseUrl, prefix, profile: key, ...own });
}
