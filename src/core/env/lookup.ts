/**
 * Which tradereq.env.json a request file uses and which of its environments, the same for the
 * command line and the editor (docs/format.md, Environments): the nearest file in the request file's
 * folder or above it; then the one asked for, else the only one, else `sandbox`.
 * No I/O and no validation code here: the shells read and validate the file.
 */
import { err, ok, type Result } from '../result';
import { BUILTIN_SANDBOX, ENV_FILE_NAME, type NamedEnvironment } from './constants';

/** What a validated tradereq.env.json holds: environments by name. */
export type EnvironmentEntries = Readonly<Record<string, Omit<NamedEnvironment, 'name'>>>;

/**
 * The places a tradereq.env.json is looked for, nearest first: `dir`, then each folder above it up
 * to the root. `parent` and `join` are the shell's (node:path, or URIs in the editor).
 */
export function envFileCandidates(
  dir: string,
  parent: (d: string) => string,
  join: (d: string, name: string) => string,
): string[] {
  const candidates: string[] = [];
  for (let d = dir; ;) {
    candidates.push(join(d, ENV_FILE_NAME));
    const up = parent(d);
    if (up === d) return candidates;
    d = up;
  }
}

/** Every environment of a file, and the built-in sandbox when the file names none `sandbox`. */
export function environmentList(entries: EnvironmentEntries | undefined): NamedEnvironment[] {
  const list = Object.entries(entries ?? {}).map(([name, env]) => ({ name, ...env }));
  return list.some((e) => e.name === BUILTIN_SANDBOX.name) ? list : [...list, BUILTIN_SANDBOX];
}

/**
 * The environment to use: `wanted` when given; else the file's only environment; else `sandbox`
 * (the file's or the built-in one). `where` names the file in the message when `wanted` is missing.
 */
export function chooseEnvironment(
  entries: EnvironmentEntries | undefined,
  wanted: string | undefined,
  where: string,
): Result<NamedEnvironment, string> {
  const names = Object.keys(entries ?? {});
  const chosen = wanted ?? (names.length === 1 ? names[0]! : BUILTIN_SANDBOX.name);
  const env = entries?.[chosen];
  if (env) return ok({ name: chosen, ...env });
  if (chosen === BUILTIN_SANDBOX.name) return ok(BUILTIN_SANDBOX);
  // Ends with the names there are: the shell adds how to pick one of them.
  const known = environmentList(entries)
    .map((e) => e.name)
    .join(', ');
  return err(
    entries
      ? `no environment "${chosen}" in ${where}, whose environments are ${known}`
      : `no environment "${chosen}": there is no ${ENV_FILE_NAME} beside ${where} or above it, so the only environment is the built-in ${known}`,
  );
}
