/**
 * Imported absolute URLs as paths: a URL under the base URL of an environment the written file
 * can run against becomes a path, so the environment (and `tradereq test --sandbox`, which swaps
 * the origin for the sandbox's) chooses where it goes (docs/format.md, Environments).
 */
import { BUILTIN_SANDBOX, type NamedEnvironment } from '../env/constants';
import { environmentWsUrl } from '../ws/url';
import { Notes } from './common';

/**
 * The environments a written file can run against, `current` (the one it uses by default) first:
 * those its tradereq.env.json names, and the built-in sandbox only when it is the default (a URL
 * on loopback must not become a path that the file's only environment sends elsewhere).
 */
export function importEnvironments(list: readonly NamedEnvironment[], current: NamedEnvironment): NamedEnvironment[] {
  return [current, ...list.filter((e) => e.name !== current.name && e !== BUILTIN_SANDBOX)];
}

interface Split {
  readonly origin: string;
  /** Path, query and fragment, as written. */
  readonly rest: string;
}

/** `scheme://host:port` (as URL normalises it: lower case, default port dropped) and the rest as written. */
function splitOrigin(url: string): Split | undefined {
  const m = /^([a-z][a-z0-9+.-]{0,15}:\/\/[^/?#\s]*)([^\s]*)$/i.exec(url.trim());
  if (!m) return undefined;
  try {
    const u = new URL(m[1]!);
    // A user name or password in the URL is the source's business: such a URL stays as written.
    if (u.username !== '' || u.password !== '' || u.origin === 'null') return undefined;
    return { origin: u.origin, rest: m[2]! };
  } catch {
    return undefined;
  }
}

function pathOf(rest: string): string {
  return rest.split(/[?#]/, 1)[0]!;
}

/** The path `url` (without its query) has under `baseUrl`, when it is under it. */
function pathUnder(url: string, baseUrl: string): string | undefined {
  const u = splitOrigin(url);
  const b = splitOrigin(baseUrl);
  if (!u || !b || u.origin !== b.origin || u.rest.includes('?')) return undefined;
  const base = pathOf(b.rest).replace(/\/+$/, '');
  if (u.rest === base || u.rest === base + '/') return '/';
  return u.rest.startsWith(base + '/') ? u.rest.slice(base.length) : undefined;
}

/**
 * The WebSocket target for `url` in `env` (docs/format.md, WebSocket requests): `/ws` (plus the
 * URL's query) when it is the environment's wsUrl, its path and query when it is another path
 * on that origin; undefined otherwise.
 */
function wsTargetUnder(url: string, env: NamedEnvironment): string | undefined {
  const wsUrl = environmentWsUrl(env);
  const u = splitOrigin(url);
  const w = wsUrl === undefined ? undefined : splitOrigin(wsUrl);
  if (!u || !w || u.origin !== w.origin || u.rest.includes('#')) return undefined;
  const path = pathOf(u.rest);
  if (w.rest.includes('?')) return u.rest === w.rest ? '/ws' : undefined;
  if (path === pathOf(w.rest)) return '/ws' + u.rest.slice(path.length);
  return path.startsWith('/') && path !== '/ws' ? u.rest : undefined;
}

/** The file variable a URL was written through (`{{host}}/api/v3/ping`), and its value. */
export interface Through {
  readonly name: string;
  readonly value: string;
}

/**
 * Turns URLs into paths for the environments given, and says once per environment that it did, and
 * once per file variable a URL was written through that the variable stays.
 */
export class BaseMapper {
  private readonly noted = new Set<string>();
  private readonly variables = new Set<string>();

  constructor(
    private readonly environments: readonly NamedEnvironment[],
    private readonly notes: Notes,
  ) {}

  /** The path of an http(s) URL under an environment's base URL; `through` the variable it was written through. */
  http(url: string, through?: Through): string | undefined {
    for (const env of this.environments) {
      const path = pathUnder(url, env.baseUrl);
      if (path !== undefined) return this.used(env, 'http', path, through);
    }
    return undefined;
  }

  /** The target of a ws(s) URL on an environment's WebSocket endpoint; `through` the variable it was written through. */
  ws(url: string, through?: Through): string | undefined {
    for (const env of this.environments) {
      const target = wsTargetUnder(url, env);
      if (target !== undefined) return this.used(env, 'ws', target, through);
    }
    return undefined;
  }

  private used(env: NamedEnvironment, kind: 'http' | 'ws', path: string, through: Through | undefined): string {
    if (through) this.variableKept(env, kind, through);
    const base = kind === 'http' ? env.baseUrl : environmentWsUrl(env)!;
    if (this.noted.has(base)) return path;
    this.noted.add(base);
    const current = this.environments[0]!;
    const which =
      env === current
        ? ''
        : ` It is not the environment the file uses by default ("${current.name}"): choose "${env.name}" with --env ${env.name} on the command line or in the editor's environment picker.`;
    const what =
      kind === 'http'
        ? `the base URL of the environment "${env.name}", are written as paths: the environment chooses where they go (and tradereq test --sandbox sends them to the sandbox)`
        : `the WebSocket URL of the environment "${env.name}", are written as paths: the environment chooses where they connect`;
    this.notes.add(`URLs under ${base}, ${what}.${which}`);
    return path;
  }

  /** Says that a variable the file's requests no longer begin with stays in the file: nothing is dropped silently. */
  private variableKept(env: NamedEnvironment, kind: 'http' | 'ws', { name, value }: Through): void {
    if (this.variables.has(name)) return;
    this.variables.add(name);
    const under = kind === 'http' ? 'base URL' : 'WebSocket URL';
    this.notes.add(
      `@${name} = ${value} stays in the file; the requests that began with {{${name}}} are written as paths under the ${under} of the environment "${env.name}", which chooses where they go.`,
    );
  }
}
