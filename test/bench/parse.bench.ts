/**
 * Parser speed: a 10,000-request file must parse in under 50 ms on the project's 2-core machine.
 * Prints figures; it is a benchmark, not a timed test. Run: npm run bench:parse
 */
import { performance } from 'node:perf_hooks';
import { parse } from '../../src/core/format/parser';

const REQUESTS = 10_000;

export function makeFile(requests: number): string {
  const parts = ['# Benchmark file', '@symbol = BTCUSDT', '@qty = 0.001', ''];
  for (let i = 0; i < requests; i++) {
    switch (i % 3) {
      case 0:
        parts.push(
          `### Buy ${i}`,
          `# @name buy${i}`,
          'POST /api/v3/order',
          'symbol = {{symbol}}',
          'side = BUY',
          'type = LIMIT',
          'quantity = {{qty}}',
          `price = ${30000 + i}`,
          'recvWindow = 5000',
          '',
        );
        break;
      case 1:
        parts.push(
          `### Split ${i}`,
          'POST /api/v3/order',
          '[query]',
          'symbol = {{symbol}}',
          'side = SELL',
          'type = LIMIT',
          '[body]',
          'quantity = {{qty}}',
          `price = ${31000 + i}`,
          '',
        );
        break;
      default:
        parts.push(
          `### JSON ${i}`,
          'POST /api/v3/order',
          '[json]',
          `{"symbol": "{{symbol}}", "side": "BUY", "type": "LIMIT", "quantity": "{{qty}}", "price": "${32000 + i}"}`,
          '',
        );
    }
  }
  return parts.join('\n');
}

function main(): void {
  const text = makeFile(REQUESTS);
  const lines = text.split('\n').length;
  let start = performance.now();
  const first = parse(text);
  const cold = performance.now() - start;
  if (first.requests.length !== REQUESTS || first.diagnostics.length !== 0)
    throw new Error('benchmark file did not parse cleanly');
  const runs: number[] = [];
  for (let i = 0; i < 30; i++) {
    start = performance.now();
    parse(text);
    runs.push(performance.now() - start);
  }
  runs.sort((a, b) => a - b);
  const median = runs[Math.floor(runs.length / 2)]!;
  const p90 = runs[Math.floor(runs.length * 0.9)]!;
  console.log(`parse: ${REQUESTS} requests, ${lines} lines, ${(text.length / 1024).toFixed(0)} KiB`);
  console.log(
    `parse: first (cold) ${cold.toFixed(1)} ms; warm median ${median.toFixed(1)} ms, p90 ${p90.toFixed(1)} ms over ${runs.length} runs (target < 50 ms)`,
  );
}

if (require.main === module) main();
