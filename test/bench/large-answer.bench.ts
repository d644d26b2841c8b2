/**
 * Large answers (`npm run bench:large-answer`): an exchangeInfo in the public deployment's
 * documented shape (test/support/exchange-info.ts) of 2,500 symbols (~1.4 MiB, what it sends) and
 * of 13,500 (~7.8 MiB, under BOUNDS.responseBytes), served by the in-process sandbox. Prints, as medians of
 * a few runs: JSON.parse of the text alone; a send read and decoded (the pipeline, node:http's
 * sender); the panel's entry made from it (what the extension host does before posting, and the
 * characters it posts); the symbol look-up. A benchmark: it prints figures and asserts nothing.
 * Run: node --require tsx/cjs test/bench/large-answer.bench.ts [--runs N]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Budget } from '../../src/core/budget/budget';
import { MemoryStateStore } from '../../src/core/budget/state';
import { ClockSync } from '../../src/core/clock/sync';
import { fetchSymbols } from '../../src/core/editor/symbols';
import { parse } from '../../src/core/format/parser';
import { NodeHttpSender } from '../../src/core/net/node-http-sender';
import { entryFromResult } from '../../src/core/panel/entry';
import { runRequest, type Sent } from '../../src/core/request/pipeline';
import { sandboxEnvironment, sandboxKeys } from '../../src/core/testing/sandbox';
import { startSandbox } from '../../src/sandbox';
import { exchangeInfoText, listedSymbol } from '../support/exchange-info';

const runsArg = process.argv.indexOf('--runs');
const RUNS = runsArg >= 0 ? Math.max(1, Number(process.argv[runsArg + 1]) || 5) : 5;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

async function timed<T>(work: () => Promise<T> | T): Promise<{ value: T; ms: number[] }> {
  const ms: number[] = [];
  let value: T | undefined;
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    value = await work();
    ms.push(performance.now() - t0);
  }
  return { value: value!, ms };
}

async function measure(count: number): Promise<void> {
  const symbols: object[] = [];
  for (let i = 0; i < count; i++) symbols.push(listedSymbol(i));
  const text = exchangeInfoText(count);
  const sandbox = await startSandbox({ port: 0, limits: false, listedSymbols: symbols });
  const sender = new NodeHttpSender();
  const dir = mkdtempSync(join(tmpdir(), 'tradereq-bench-large-'));
  try {
    const store = new MemoryStateStore();
    const doc = parse('GET /api/v3/exchangeInfo\n');
    const send = (): Promise<Sent> =>
      runRequest(doc, doc.requests[0]!, sandboxEnvironment(sandbox.baseUrl), {
        sender,
        budget: new Budget(store),
        clock: new ClockSync(store),
        clockSync: false,
        responses: new Map(),
        key: sandboxKeys(new URL(sandbox.baseUrl).origin),
        confirm: () => false,
      }).then((r) => {
        if (!r.ok) throw new Error(r.error.message);
        return r.value;
      });
    const parsed = await timed(() => JSON.parse(text) as unknown);
    const sent = await timed(send);
    const entry = await timed(() => entryFromResult(sent.value, { id: '1', at: 0, title: 'exchangeInfo' }));
    const looked = await timed(() => fetchSymbols(sandbox.baseUrl, { sender, budget: new Budget(store) }));
    const found = looked.value.ok ? `${looked.value.value.length} symbols` : `refused: ${looked.value.error}`;
    const bytes = sent.value.report.response?.bodyBytes ?? 0;
    console.log(
      `${count} symbols, ${(bytes / 1024 / 1024).toFixed(2)} MiB (parsed: ${sent.value.report.decoded?.json !== undefined}):`,
    );
    console.log(`  JSON.parse of the text alone      ${median(parsed.ms).toFixed(1)} ms`);
    console.log(`  send, read and decoded            ${median(sent.ms).toFixed(1)} ms`);
    console.log(
      `  the panel's entry made            ${median(entry.ms).toFixed(1)} ms, ${JSON.stringify(entry.value).length} characters posted`,
    );
    console.log(`  symbol look-up                    ${median(looked.ms).toFixed(1)} ms (${found})`);
  } finally {
    await sender.close();
    await sandbox.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

void (async () => {
  console.log(`node ${process.version}, medians of ${RUNS} runs`);
  for (const count of [2_500, 13_500]) await measure(count);
})();
