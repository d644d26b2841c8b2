/**
 * The sandbox in a process of its own, as the network benchmarks run it, so that its CPU is not the
 * client's: a bench file starts itself again with `--serve`, which runs `tradereq sandbox --json`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { sandboxCommand } from '../../src/cli/sandbox';
import { processIo } from '../../src/cli/usage';

const SERVE_FLAG = '--serve';

/** A demo key as `tradereq sandbox --json` prints it. */
export interface SandboxKey {
  readonly name: string;
  readonly apiKey: string;
  readonly secretKey: string;
}

interface SandboxInfo {
  readonly baseUrl: string;
  readonly wsUrl: string;
  readonly keys: readonly SandboxKey[];
}

/** `NAME N` from the command line when `accept` takes N (by default a positive whole number), else `fallback`. */
export function option(
  name: string,
  fallback: number,
  accept: (v: number) => boolean = (v) => Number.isInteger(v) && v > 0,
): number {
  const i = process.argv.indexOf(name);
  const v = i >= 0 ? Number(process.argv[i + 1]) : NaN;
  return Number.isFinite(v) && accept(v) ? v : fallback;
}

/** Starts `benchFile` again as the sandbox's process; resolves with it and the address and keys it printed. */
export async function startServer(benchFile: string): Promise<{ child: ChildProcess } & SandboxInfo> {
  const child = spawn(process.execPath, ['--require', 'tsx/cjs', benchFile, SERVE_FLAG], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`the sandbox exited (${code}) before printing its address`)));
  });
  child.stdout.resume();
  return { child, ...(JSON.parse(line) as SandboxInfo) };
}

/** Runs the benchmark, or the sandbox when startServer started this process (`limits`: §8's rate limits on). */
export function runBench(main: () => Promise<void>, { limits }: { readonly limits: boolean }): void {
  const serve = async (): Promise<void> => {
    const args = ['--port', '0', '--json', ...(limits ? [] : ['--no-limits'])];
    process.exitCode = await sandboxCommand(args, processIo);
  };
  (process.argv.includes(SERVE_FLAG) ? serve() : main()).catch((e: unknown) => {
    console.error(e);
    process.exitCode = 1;
  });
}
