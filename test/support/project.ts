/**
 * A folder of request files beside a running sandbox, as a user has them: a temporary folder with a
 * `tradereq.env.json` whose environments point at an in-process sandbox, a state folder of its own,
 * and the built CLI run in it.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox, type Sandbox } from '../../src/sandbox';
import { tradereq, type Run } from './cli';

export interface Project {
  readonly sandbox: Sandbox;
  readonly dir: string;
  /** TRADEREQ_STATE_DIR inside the folder. */
  readonly env: Record<string, string>;
  run(args: string[]): Promise<Run>;
  /** "METHOD /path" of every request the sandbox received, in order. */
  reached(): Promise<string[]>;
  close(): Promise<void>;
}

/** `files` written into a new folder, with `environments` (names) each on the sandbox with its demo key. */
export async function sandboxProject(
  prefix: string,
  files: Record<string, string>,
  environments: readonly string[] = ['local'],
): Promise<Project> {
  const sandbox = await startSandbox({ port: 0 });
  const dir = mkdtempSync(join(tmpdir(), `tradereq-${prefix}-`));
  const env = { TRADEREQ_STATE_DIR: join(dir, 'state') };
  const environment = { baseUrl: sandbox.baseUrl, key: 'sandbox' };
  writeFileSync(
    join(dir, 'tradereq.env.json'),
    JSON.stringify(Object.fromEntries(environments.map((name) => [name, environment]))),
  );
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return {
    sandbox,
    dir,
    env,
    run: (args) => tradereq(args, { cwd: dir, env }),
    reached: async () =>
      ((await (await fetch(`${sandbox.baseUrl}/_sandbox/requests`)).json()) as { method: string; path: string }[]).map(
        (e) => `${e.method} ${e.path}`,
      ),
    close: async () => {
      await sandbox.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
