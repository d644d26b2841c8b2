/**
 * Sandbox speed: signed order requests per second on loopback, limits off (target ≥ 5,000/s on
 * the project's 2-core machine). The server runs in a child process started through the command
 * line module (`tradereq sandbox --port 0 --json --no-limits`), so it has a core of its own and
 * the client (undici Pool, this process) the other. Prints figures; it is a benchmark, not a test.
 * Run: node --require tsx/cjs test/bench/sandbox.bench.ts [--requests N] [--connections C] [--depth D]
 */
import { createHmac } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { Pool } from 'undici';
import { option, runBench, startServer, type SandboxKey } from './sandbox-process';

const MAX_SECONDS = 60;

/** LIMIT orders that rest (BUY under the asks, SELL over the bids), each with its own client id. */
function presign(key: SandboxKey, count: number, offset: number): string[] {
  const timestamp = Date.now();
  const paths: string[] = [];
  for (let i = 0; i < count; i++) {
    const n = offset + i;
    const buy = n % 2 === 0;
    const price = buy ? 20_000 + (n % 1000) : 40_000 + (n % 1000);
    const query = `symbol=BTCUSDT&side=${buy ? 'BUY' : 'SELL'}&type=LIMIT&quantity=0.0001&price=${price}&newClientOrderId=bench${n}&recvWindow=60000&timestamp=${timestamp}`;
    const signature = createHmac('sha256', key.secretKey).update(query).digest('hex');
    paths.push(`/api/v3/order?${query}&signature=${signature}`);
  }
  return paths;
}

interface Run {
  readonly seconds: number;
  readonly done: number;
  readonly failures: Map<string, number>;
  readonly latencies: Float64Array;
}

async function fire(
  pool: Pool,
  apiKey: string,
  paths: readonly string[],
  inFlight: number,
  deadline: number,
): Promise<Run> {
  const latencies = new Float64Array(paths.length);
  const failures = new Map<string, number>();
  const headers = { 'X-SERVICE-APIKEY': apiKey };
  let next = 0;
  let done = 0;
  const start = performance.now();
  const worker = async (): Promise<void> => {
    while (next < paths.length && performance.now() < deadline) {
      const i = next++;
      const t0 = performance.now();
      try {
        const res = await pool.request({ method: 'POST', path: paths[i]!, headers });
        const text = await res.body.text();
        if (res.statusCode !== 200)
          failures.set(
            `${res.statusCode} ${text.slice(0, 80)}`,
            (failures.get(`${res.statusCode} ${text.slice(0, 80)}`) ?? 0) + 1,
          );
      } catch (e) {
        const m = e instanceof Error ? e.message : String(e);
        failures.set(m, (failures.get(m) ?? 0) + 1);
      }
      latencies[done++] = performance.now() - t0;
    }
  };
  await Promise.all(Array.from({ length: inFlight }, worker));
  return { seconds: (performance.now() - start) / 1000, done, failures, latencies: latencies.subarray(0, done) };
}

function percentile(sorted: Float64Array, p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? NaN;
}

async function main(): Promise<void> {
  // Each SELL locks 0.0001 BTC of the demo account's 10: past 190,000 orders they would meet 30004.
  const requests = Math.min(option('--requests', 40_000), 190_000);
  const connections = option('--connections', 8);
  const depth = option('--depth', 8);
  const { child, baseUrl, keys } = await startServer(__filename);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const key = keys.find((k) => k.name === 'trade')!;
  const pool = new Pool(baseUrl, { connections, pipelining: depth });
  try {
    const warm = presign(key, 2_000, 0);
    await fire(pool, key.apiKey, warm, connections * depth, performance.now() + 20_000);
    const signStart = performance.now();
    const paths = presign(key, requests, warm.length);
    const signMs = performance.now() - signStart;
    const run = await fire(pool, key.apiKey, paths, connections * depth, performance.now() + MAX_SECONDS * 1000);
    const sorted = Float64Array.from(run.latencies).sort();
    const rate = run.done / run.seconds;
    console.log(
      'sandbox: server in a child process (tradereq sandbox --no-limits, limits off), client undici Pool in this process',
    );
    console.log(
      `sandbox: ${run.done} signed POST /api/v3/order (LIMIT, resting) in ${run.seconds.toFixed(2)} s over ${connections} connections × pipelining ${depth} (pre-signed in ${signMs.toFixed(0)} ms)`,
    );
    console.log(`sandbox: ${Math.round(rate)} requests/s (target ≥ 5000)${rate >= 5000 ? '' : '  BELOW TARGET'}`);
    console.log(
      `sandbox: latency p50 ${percentile(sorted, 0.5).toFixed(2)} ms, p90 ${percentile(sorted, 0.9).toFixed(2)} ms, p99 ${percentile(sorted, 0.99).toFixed(2)} ms, max ${(sorted[sorted.length - 1] ?? NaN).toFixed(2)} ms`,
    );
    if (run.failures.size > 0) {
      console.log(`sandbox: ${[...run.failures.values()].reduce((a, b) => a + b, 0)} answers were not 200:`);
      for (const [what, n] of run.failures) console.log(`  ${n} × ${what}`);
      process.exitCode = 1;
    }
  } finally {
    await pool.close();
    child.kill('SIGTERM');
    const code = await exited;
    if (code !== 0) {
      console.log(`sandbox: the server exited with ${code} instead of 0 after SIGTERM`);
      process.exitCode = 1;
    }
  }
}

if (require.main === module) runBench(main, { limits: false });
