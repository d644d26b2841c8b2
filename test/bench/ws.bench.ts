/**
 * Sandbox WebSocket load: C connections with 30 streams each on loopback, pushes fed by REST
 * trades, target ≥ 20,000 messages a second delivered in total with the server's memory bounded.
 * A few extra connections subscribe and never read (slow consumers): their pushes first fill the
 * kernel's socket buffers (megabytes on loopback, outside the server's heap); past that, over 256 KiB
 * waiting in the server closes them (1008), so a short run may end with them still open. The server runs in a child process
 * (`tradereq sandbox --port 0 --json --no-limits`: the REST driver would meet the §8 rate limit);
 * clients and the REST driver run here. Prints figures; it is a benchmark, not a test.
 * Then TradeReq's own client (WsConnection) beside itself: the same pushes as JSON text and as
 * Protocol Buffers wrappers (the public deployment's encoding), from a stand-in server in a process
 * of its own (push-server.ts), as fast as the socket takes them: pushes a second and the client's CPU
 * per push of each, in paired rounds.
 * Run: node --require tsx/cjs test/bench/ws.bench.ts [--connections 200] [--trades 12] [--seconds 10] [--slow 4]
 *      [--client-pushes 60000] [--rounds 3]
 */
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { Pool } from 'undici';
import { WebSocket } from 'ws';
import { Budget } from '../../src/core/budget/budget';
import { MemoryStateStore } from '../../src/core/budget/state';
import { WsConnection } from '../../src/core/ws';
import { meanFrameBytes, PUSH_STREAMS, startPushServer } from './push-server';
import { option, runBench, startServer, type SandboxKey } from './sandbox-process';

const STREAMS_PER_CONNECTION = 30;
const INTERVALS = ['Min1', 'Min5', 'Min15', 'Min30', 'Min60', 'Hour4', 'Day1', 'Week1', 'Month'];

/** The options of this bench take 0 too (`--slow 0`: no connection that never reads). */
const WHOLE = (v: number): boolean => Number.isInteger(v) && v >= 0;

/** The server's resident memory in MiB (Linux /proc). */
function rssMiB(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m === null ? NaN : Number(m[1]) / 1024;
}

/** CPU seconds (user + system) the process has used (Linux /proc; clock ticks of 1/100 s). */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** Every public stream of BTCUSDT and ETHUSDT (14 each), and two of LTCBTC: 30. */
function streamNames(): string[] {
  const names: string[] = [];
  for (const symbol of ['BTCUSDT', 'ETHUSDT']) {
    names.push(`spot@public.deals.v3.api@${symbol}`, `spot@public.bookTicker.v3.api@${symbol}`);
    for (const levels of [5, 10, 20]) names.push(`spot@public.limit.depth.v3.api@${symbol}@${levels}`);
    for (const interval of INTERVALS) names.push(`spot@public.kline.v3.api@${symbol}@${interval}`);
  }
  names.push('spot@public.deals.v3.api@LTCBTC', 'spot@public.bookTicker.v3.api@LTCBTC');
  return names.slice(0, STREAMS_PER_CONNECTION);
}

interface Tally {
  messages: number;
  latencies: number[];
  measuring: boolean;
}

/** Opens a connection, subscribes to `names` and counts pushes into `tally` (unless `slow`). */
async function client(
  wsUrl: string,
  names: string[],
  tally: Tally,
  slow: boolean,
): Promise<{ ws: WebSocket; closed: Promise<number> }> {
  const ws = new WebSocket(wsUrl);
  const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  const subscribed = new Promise<void>((resolve) => ws.once('message', () => resolve()));
  ws.send(JSON.stringify({ method: 'SUBSCRIPTION', params: names, id: 1 }));
  await subscribed;
  if (slow) {
    ws.pause();
    return { ws, closed };
  }
  ws.on('message', (data: Buffer) => {
    if (!tally.measuring) return;
    const push = JSON.parse(data.toString('utf8')) as { t?: number };
    tally.messages++;
    // Every 16th push, to keep the bookkeeping small: receipt time − the push's server time.
    if (typeof push.t === 'number' && (tally.messages & 15) === 0)
      tally.latencies.push(performance.timeOrigin + performance.now() - push.t);
  });
  return { ws, closed };
}

/** One signed crossing LIMIT order path: BUY above / SELL below the house's best prices. */
function orderPath(key: SandboxKey, n: number): string {
  const eth = n % 4 >= 2;
  const buy = n % 2 === 0;
  const price = eth ? (buy ? '2001' : '1999') : buy ? '30010' : '29990';
  const query = `symbol=${eth ? 'ETHUSDT' : 'BTCUSDT'}&side=${buy ? 'BUY' : 'SELL'}&type=LIMIT&quantity=0.001&price=${price}&recvWindow=60000&timestamp=${Date.now()}`;
  return `/api/v3/order?${query}&signature=${createHmac('sha256', key.secretKey).update(query).digest('hex')}`;
}

/** Sends `perSecond` trades a second, evenly paced, until `stop()`; returns the count and failures. */
function drive(
  pool: Pool,
  key: SandboxKey,
  perSecond: number,
): { stop: () => Promise<{ sent: number; failed: number }> } {
  let sent = 0;
  let failed = 0;
  const pending = new Set<Promise<void>>();
  const timer = setInterval(() => {
    const p = pool
      .request({ method: 'POST', path: orderPath(key, sent++), headers: { 'X-SERVICE-APIKEY': key.apiKey } })
      .then(async (res) => {
        await res.body.text();
        if (res.statusCode !== 200) failed++;
      })
      .catch(() => {
        failed++;
      })
      .finally(() => pending.delete(p));
    pending.add(p);
  }, 1000 / perSecond);
  return {
    stop: async () => {
      clearInterval(timer);
      await Promise.all(pending);
      return { sent, failed };
    },
  };
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? NaN;
}

async function main(): Promise<void> {
  const connections = option('--connections', 200, WHOLE);
  const tradesPerSecond = option('--trades', 12, WHOLE);
  const seconds = option('--seconds', 10, WHOLE);
  const slowCount = option('--slow', 4, WHOLE);
  const { child, baseUrl, wsUrl, keys } = await startServer(__filename);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const pid = child.pid!;
  const key = keys.find((k) => k.name === 'trade')!;
  const pool = new Pool(baseUrl, { connections: 4 });
  const tally: Tally = { messages: 0, latencies: [], measuring: false };
  const names = streamNames();
  try {
    const rssStart = rssMiB(pid);
    const clients = [];
    for (let i = 0; i < connections; i++) clients.push(await client(wsUrl, names, tally, false));
    const slow = [];
    for (let i = 0; i < slowCount; i++) slow.push(await client(wsUrl, names, tally, true));
    const rssConnected = rssMiB(pid);
    let rssPeak = rssConnected;
    const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, rssMiB(pid))), 250);

    const driver = drive(pool, key, tradesPerSecond);
    await new Promise((r) => setTimeout(r, 2000)); // warm-up, not measured
    tally.measuring = true;
    const t0 = performance.now();
    const serverCpu0 = cpuSeconds(pid);
    const clientCpu0 = process.cpuUsage();
    await new Promise((r) => setTimeout(r, seconds * 1000));
    tally.measuring = false;
    const elapsed = (performance.now() - t0) / 1000;
    const serverCpu = (cpuSeconds(pid) - serverCpu0) / elapsed;
    const used = process.cpuUsage(clientCpu0);
    const clientCpu = (used.user + used.system) / 1e6 / elapsed;
    const { sent, failed } = await driver.stop();
    clearInterval(sampler);
    const rssEnd = rssMiB(pid);

    for (const s of slow) s.ws.resume();
    const slowCodes = await Promise.all(
      slow.map((s) => Promise.race([s.closed, new Promise<string>((r) => setTimeout(() => r('open'), 3000))])),
    );
    const open = clients.filter((c) => c.ws.readyState === WebSocket.OPEN).length;
    report({ connections, open, names: names.length, tradesPerSecond, sent, failed, elapsed, tally, slowCodes });
    console.log(
      `ws: CPU during the measured run: server ${(serverCpu * 100).toFixed(0)} % of a core, clients and driver ${(clientCpu * 100).toFixed(0)} %`,
    );
    console.log(
      `ws: server RSS ${rssStart.toFixed(1)} MiB at start, ${rssConnected.toFixed(1)} MiB with ${connections + slowCount} connections, peak ${rssPeak.toFixed(1)} MiB during the run, ${rssEnd.toFixed(1)} MiB after`,
    );
    for (const c of clients) c.ws.terminate();
    await clientFigures(option('--client-pushes', 60_000), option('--rounds', 3));
  } finally {
    await pool.close();
    child.kill('SIGTERM');
    const code = await exited;
    if (code !== 0) {
      console.log(`ws: the server exited with ${code} instead of 0 after SIGTERM`);
      process.exitCode = 1;
    }
  }
}

interface Figures {
  readonly connections: number;
  readonly open: number;
  readonly names: number;
  readonly tradesPerSecond: number;
  readonly sent: number;
  readonly failed: number;
  readonly elapsed: number;
  readonly tally: Tally;
  readonly slowCodes: readonly (number | string)[];
}

function report(f: Figures): void {
  const rate = f.tally.messages / f.elapsed;
  const sorted = [...f.tally.latencies].sort((a, b) => a - b);
  console.log('ws: server in a child process (tradereq sandbox --no-limits), clients and REST driver in this process');
  console.log(
    `ws: ${f.connections} connections × ${f.names} streams; ${f.open} still open at the end; ${f.sent} REST trades at ${f.tradesPerSecond}/s (${f.failed} not 200)`,
  );
  console.log(
    `ws: ${f.tally.messages} pushes delivered in ${f.elapsed.toFixed(2)} s: ${Math.round(rate)} messages/s (target ≥ 20000)${rate >= 20_000 ? '' : '  BELOW TARGET'}`,
  );
  console.log(
    `ws: push latency (receipt − the push's server time t, 1 in 16 sampled): p50 ${percentile(sorted, 0.5).toFixed(1)} ms, p99 ${percentile(sorted, 0.99).toFixed(1)} ms, max ${(sorted.at(-1) ?? NaN).toFixed(1)} ms`,
  );
  console.log(
    `ws: ${f.slowCodes.length} slow consumers (never read) ended with: ${f.slowCodes.join(', ') || '-'} (open: their pushes still fit the kernel's socket buffers)`,
  );
  if (rate < 20_000 || f.failed > 0 || f.open !== f.connections) process.exitCode = 1;
}

type Encoding = 'json' | 'protobuf';

/** One connection of TradeReq's client reading `count` pushes of `encoding`: seconds, and the client's CPU seconds. */
async function clientRun(wsUrl: string, encoding: Encoding, count: number): Promise<{ s: number; cpu: number }> {
  const c = new WsConnection({ budget: new Budget(new MemoryStateStore()), streamEncoding: encoding, pingAfterMs: 0 });
  let n = 0;
  let done: () => void = () => undefined;
  const all = new Promise<void>((resolve) => (done = resolve));
  c.on('push', () => ++n === count && done());
  const opened = await c.connect(`${wsUrl}?encoding=${encoding}&count=${count}`);
  if (!opened.ok) throw new Error(opened.error.message);
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await c.subscribe(PUSH_STREAMS[encoding]);
  await all;
  const s = (performance.now() - t0) / 1000;
  const used = process.cpuUsage(cpu0);
  const dropped = c.snapshot().counts;
  await c.close();
  if (dropped.undecodable + dropped.unknown + dropped.binary + dropped.textPush > 0)
    throw new Error(`${encoding}: frames dropped: ${JSON.stringify(dropped)}`);
  return { s, cpu: (used.user + used.system) / 1e6 };
}

const median = (xs: readonly number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

/** TradeReq's client: JSON pushes beside Protocol Buffers ones, paired rounds, medians. */
async function clientFigures(count: number, rounds: number): Promise<void> {
  const server = await startPushServer();
  const runs: Record<Encoding, { s: number; cpu: number }[]> = { json: [], protobuf: [] };
  try {
    await clientRun(server.wsUrl, 'json', Math.min(count, 5000)); // warm-up, not measured
    await clientRun(server.wsUrl, 'protobuf', Math.min(count, 5000));
    for (let r = 0; r < rounds; r++)
      for (const e of r % 2 === 0 ? (['json', 'protobuf'] as const) : (['protobuf', 'json'] as const))
        runs[e].push(await clientRun(server.wsUrl, e, count));
  } finally {
    server.child.kill('SIGTERM');
  }
  console.log(
    `ws client: TradeReq's WsConnection reading ${count} pushes (1/3 five deals, 1/3 a 20-level book, 1/3 best bid and ask) from a stand-in server in its own process, median of ${rounds} paired rounds:`,
  );
  for (const e of ['json', 'protobuf'] as const) {
    const s = median(runs[e].map((x) => x.s));
    const cpu = median(runs[e].map((x) => x.cpu));
    const label = e === 'json' ? 'JSON text       ' : 'Protocol Buffers';
    console.log(
      `ws client: ${label}: ${Math.round(count / s)} pushes/s, client CPU ${((cpu / count) * 1e6).toFixed(1)} µs a push, ${Math.round(meanFrameBytes(e))} bytes a frame on average`,
    );
  }
}

if (require.main === module) runBench(main, { limits: false });
