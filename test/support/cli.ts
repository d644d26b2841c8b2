/**
 * The built command line (dist/cli.js) as a user runs it, spawned without blocking the event loop
 * (so that a sandbox in the test's own process can answer), with no TRADEREQ_* variable of the
 * machine leaking in.
 */
import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';

export const ROOT = join(__dirname, '..', '..');
// TRADEREQ_TEST_CLI runs the suites against another build (e.g. an older one, for before/after figures).
export const CLI = process.env['TRADEREQ_TEST_CLI'] ?? join(ROOT, 'dist', 'cli.js');

export interface Run {
  /** null when the run was killed at its deadline. */
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly ms: number;
}

/** process.env without any TRADEREQ_* variable nor FORCE_COLOR (a CI's would colour every piped run), plus `extra`. */
export function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env))
    if (!k.toUpperCase().startsWith('TRADEREQ_') && k !== 'FORCE_COLOR') env[k] = v;
  return { ...env, ...extra };
}

export interface RunOptions {
  readonly cwd: string;
  readonly env?: Record<string, string>;
  /** Killed after this long (status null): a hang fails the test instead of stalling the suite. */
  readonly timeoutMs?: number;
}

export function tradereq(args: readonly string[], options: RunOptions): Promise<Run> {
  const start = Date.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      cwd: options.cwd,
      env: cleanEnv(options.env),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 30_000);
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr, ms: Date.now() - start });
    });
  });
}

export function describeRun(r: Run): string {
  return `exit ${r.status} after ${r.ms} ms\n--- stdout ---\n${r.stdout.slice(0, 4000)}\n--- stderr ---\n${r.stderr.slice(0, 4000)}`;
}

/** Whether `script` (util-linux) can give a run a terminal: Linux; elsewhere the tests that need one skip. */
export function canFakeTerminal(): boolean {
  return spawnSync('script', ['--version']).status === 0;
}

/**
 * Runs the CLI under `script`, so that its standard input and output are a terminal; answers
 * `answer` to its first `[y/N]` question. stdout is all the terminal got (stderr included).
 */
export function inTerminal(args: readonly string[], options: RunOptions & { readonly answer?: string }): Promise<Run> {
  const start = Date.now();
  const quote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;
  const command = [process.execPath, CLI, ...args].map(quote).join(' ');
  return new Promise((resolve) => {
    const child = spawn('script', ['-qec', command, '/dev/null'], { cwd: options.cwd, env: cleanEnv(options.env) });
    let stdout = '';
    let answered = false;
    child.stdout.on('data', (c: Buffer) => {
      stdout += c.toString();
      if (options.answer !== undefined && !answered && stdout.includes('[y/N]')) {
        answered = true;
        child.stdin.write(options.answer + '\n');
      }
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 30_000);
    child.on('close', (status) => {
      clearTimeout(timer);
      child.stdin.destroy();
      resolve({ status, stdout, stderr: '', ms: Date.now() - start });
    });
  });
}
