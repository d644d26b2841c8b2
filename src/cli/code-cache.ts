/**
 * The command line's own bundles (dist/cli/*.js) loaded through V8's code cache: the bytecode V8
 * made for a bundle, its functions that ran included, is kept in the state folder and handed back
 * to V8 on the next run, which then parses and compiles none of it again (most of what loading a
 * command costs). A cache serves only the bundle it was made from (the bundle's SHA-256 names
 * it), only when no one but this user can write it (it is code), and V8 itself refuses one made by
 * another Node or under other flags; any doubt compiles afresh, as require() would.
 * TRADEREQ_CODE_CACHE=off keeps no cache. A small bundle (`tradereq errors`, the completion's) keeps
 * none either: V8 compiles it sooner than node:crypto loads to name its cache. esbuild.js makes
 * main.ts's lazy require()s load through here.
 */
import { mkdirSync, readdirSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { Script } from 'node:vm';
import { defaultStateDir } from '../core/budget/state-dir';
import { nodeCrypto } from '../core/node-lazy';

type CommonJsWrapper = (
  exports: unknown,
  require: NodeJS.Require,
  module: { exports: unknown },
  filename: string,
  dirname: string,
) => void;

/**
 * The size (characters) from which a bundle is worth a cache: compiling the 22 KB of `tradereq
 * errors` costs a fraction of a millisecond, loading node:crypto (for the SHA-256 that names a
 * cache) several, and a command that does not sign loads it for nothing. The production bundles
 * below it: errors, completion, complete, init, state, core-env-schema; send, check, sign, test,
 * listen and the others are above.
 */
export const CACHE_FROM_CHARS = 64 * 1024;

/** Where the cache of a bundle lives (code-cache/ in the state folder), or undefined when none is kept. */
function cachePath(file: string, source: string, env: NodeJS.ProcessEnv): string | undefined {
  // Ownership is how a cache is trusted: without POSIX users (Windows), none is kept.
  if (env['TRADEREQ_CODE_CACHE'] === 'off' || typeof process.getuid !== 'function') return undefined;
  if (source.length < CACHE_FROM_CHARS) return undefined;
  // node:crypto loads here, for a bundle worth a cache only: a command that does not sign need not pay for it.
  const hash = nodeCrypto().createHash('sha256').update(source).digest('hex').slice(0, 32);
  return join(defaultStateDir(env), 'code-cache', `${basename(file, '.js')}-${hash}.bin`);
}

/** The bundle's exports, as require(file) would give them. */
export function loadBundle(file: string, env: NodeJS.ProcessEnv = process.env): unknown {
  // esbuild.js writes the bundle as the function that wraps it: its text is compiled as it is, not copied.
  const source = readFileSync(file, 'utf8');
  const cache = cachePath(file, source, env);
  const cachedData = cache === undefined ? undefined : readTrusted(cache);
  const script = new Script(source, { filename: file, cachedData });
  const module = { exports: {} as unknown };
  // This bundle's own require: the bundles require only Node's modules (and, in the sandbox's, optional
  // packages found from dist/ all the same), and node:module's createRequire would cost a module more.
  (script.runInThisContext() as CommonJsWrapper)(module.exports, require, module, file, dirname(file));
  // Made at exit, so that it holds the functions this run compiled, not only the top level.
  if (cache !== undefined && (cachedData === undefined || script.cachedDataRejected === true))
    process.once('exit', () => keep(cache, basename(file, '.js'), script));
  return module.exports;
}

/** The file's bytes when this user owns it and no one else may write it or its folder; else nothing. */
function readTrusted(path: string): Buffer | undefined {
  try {
    const uid = process.getuid?.();
    for (const p of [dirname(path), path]) {
      const s = statSync(p);
      if (s.uid !== uid || (s.mode & 0o022) !== 0) return undefined;
    }
    return readFileSync(path);
  } catch {
    return undefined;
  }
}

/** Writes the cache atomically (the folder private to this user) and drops those of older bundles. */
function keep(path: string, name: string, script: Script): void {
  try {
    const dir = dirname(path);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const tmp = `${path}.${process.pid}.tmp`;
    writeFileSync(tmp, script.createCachedData(), { mode: 0o600 });
    renameSync(tmp, path);
    const older = new RegExp(`^${name}-[0-9a-f]{32}\\.bin$`);
    for (const f of readdirSync(dir)) if (older.test(f) && f !== basename(path)) unlinkSync(join(dir, f));
  } catch {
    // A cache that cannot be kept costs the next run its compile, nothing more.
  }
}
