/**
 * A paced run (`npm run bench:pace`): `tradereq test --pace` of 2,000 signed requests against the
 * sandbox in a process of its own with its §8 limits on, on the real clock, as a user runs it: from a
 * folder with a tradereq.env.json whose environment names a key profile, the profile's keys and
 * origins in TRADEREQ_DESK_* variables, and a state folder of its own. Prints the wall time against
 * the ideal (the run's total weight over the allowed rate, FRACTION × 500 weight per 10 s) and the
 * number of 429s, which must be 0 (the exit code is 1 otherwise). Takes about a minute; not part of
 * npm test. Run: node --require tsx/cjs test/bench/pace.bench.ts [--requests N] [--pace F]
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { findEndpoint } from '../../src/core/catalog/endpoints';
import { LIMITS } from '../../src/core/catalog/limits';
import { testCommand } from '../../src/cli/test';
import { processIo } from '../../src/cli/usage';
import { option, runBench, startServer } from './sandbox-process';

const PROFILE = 'desk';

/** Nine orders tested (weight 1) to one open-orders query (weight 3), signed, on the account's counter. */
const ORDER = 'POST /api/v3/order/test\nsymbol = BTCUSDT\nside = BUY\ntype = LIMIT\nquantity = 0.001\nprice = 20000';
const OPEN_ORDERS = 'GET /api/v3/openOrders\nsymbol = BTCUSDT';

function requests(count: number): { text: string; weight: number } {
  const order = findEndpoint('POST', '/api/v3/order/test')!;
  const open = findEndpoint('GET', '/api/v3/openOrders')!;
  let weight = 0;
  const blocks: string[] = [];
  for (let i = 0; i < count; i++) {
    const heavy = i % 10 === 9;
    weight += heavy ? open.weight : order.weight;
    blocks.push(`### request ${i + 1}\n${heavy ? OPEN_ORDERS : ORDER}\n`);
  }
  return { text: blocks.join('\n'), weight };
}

interface Report {
  summary: { passed: number; failed: number; text: string; pace?: { waitedMs: number; rateLimited: number } };
  files: { cases: { status: number | null }[] }[];
}

async function main(): Promise<void> {
  const count = Math.round(option('--requests', 2_000));
  const fraction = Math.min(
    option('--pace', 0.8, (v) => v > 0),
    1,
  );
  const dir = mkdtempSync(join(tmpdir(), 'tradereq-bench-pace-'));
  const { child, baseUrl, keys } = await startServer(__filename);
  const key = keys.find((k) => k.name === 'trade')!;
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  try {
    const { text, weight } = requests(count);
    writeFileSync(join(dir, 'paced.tradereq'), text);
    writeFileSync(join(dir, 'tradereq.env.json'), JSON.stringify({ local: { baseUrl, key: PROFILE } }));
    const prefix = `TRADEREQ_${PROFILE.toUpperCase()}_`;
    const env: NodeJS.ProcessEnv = {
      ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('TRADEREQ_'))),
      TRADEREQ_STATE_DIR: join(dir, 'state'),
      TRADEREQ_ENV: 'local',
      [`${prefix}API_KEY`]: key.apiKey,
      [`${prefix}SECRET_KEY`]: key.secretKey,
      [`${prefix}ORIGINS`]: new URL(baseUrl).origin,
    };
    const out: string[] = [];
    const io = { ...processIo, env, cwd: dir, out: (t: string) => void out.push(t) };
    const args = ['paced.tradereq', '--pace', String(fraction), '--reporter', 'json:report.json'];
    const start = performance.now();
    const exit = await testCommand(args, io);
    const seconds = (performance.now() - start) / 1000;
    const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as Report;
    const served = (await (await fetch(`${baseUrl}/_sandbox/requests`)).json()) as { path: string; status: number }[];
    print({ count, fraction, weight, seconds, exit, report, served });
  } finally {
    child.kill('SIGTERM');
    await exited;
    rmSync(dir, { recursive: true, force: true });
  }
}

function print(r: {
  count: number;
  fraction: number;
  weight: number;
  seconds: number;
  exit: number;
  report: Report;
  served: { path: string; status: number }[];
}): void {
  const { limit, intervalMs } = LIMITS.rate.uid;
  const perSecond = (r.fraction * limit) / (intervalMs / 1000);
  const ideal = r.weight / perSecond;
  // The first window's share goes at once (the counter starts empty): the rate applies to the rest.
  const steady = Math.max(0, r.weight - Math.floor(r.fraction * limit)) / perSecond;
  const limited = r.served.filter((s) => s.status === 429 || s.status === 418).length;
  const statuses = new Map<string, number>();
  for (const f of r.report.files)
    for (const c of f.cases) statuses.set(String(c.status), (statuses.get(String(c.status)) ?? 0) + 1);
  console.log(
    `pace: tradereq test --pace ${r.fraction}: ${r.count} signed requests (${r.weight} weight on the account's counter) against the sandbox in its own process, limits on, real clock`,
  );
  console.log(`pace: ${r.report.summary.text} (exit ${r.exit})`);
  console.log(`pace: answers by status: ${[...statuses].map(([s, n]) => `${s} × ${n}`).join(', ')}`);
  console.log(
    `pace: wall ${r.seconds.toFixed(1)} s; ideal ${ideal.toFixed(1)} s (${r.weight} weight at ${perSecond} a second): ratio ${(r.seconds / ideal).toFixed(3)}`,
  );
  console.log(
    `pace: after the first window's ${Math.floor(r.fraction * limit)} weight, which goes at once: ideal ${steady.toFixed(1)} s, ratio ${(r.seconds / steady).toFixed(3)}`,
  );
  console.log(
    `pace: pacing waited ${((r.report.summary.pace?.waitedMs ?? 0) / 1000).toFixed(1)} s; 429 or 418 answers: ${limited} (must be 0)`,
  );
  if (limited > 0 || r.exit !== 0) process.exitCode = 1;
}

if (require.main === module) runBench(main, { limits: true });
