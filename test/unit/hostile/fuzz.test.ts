/**
 * Fuzz: random request files, with random graphs of variables among them (doubling, long chains,
 * cycles, undefined names, half-written braces), go through parse, check and resolve as the
 * editor and the command line run them. Each input must finish within a time bound, not only
 * without throwing: a shared file must never freeze the editor. Seeded, so a failure can be replayed.
 */
import assert from 'node:assert/strict';
import { checkDocument } from '../../../src/core/check/check';
import { BUILTIN_SANDBOX } from '../../../src/core/env/constants';
import { parse } from '../../../src/core/format/parser';
import { resolveRequest, type ResolveContext } from '../../../src/core/format/resolve';
import { cpuTime } from '../../support/cpu-time';

/** Per input: generous for a loaded 2-core machine, far below what exponential expansion takes. */
const BOUND_MS = 2_000;
const INPUTS = 5_000;

function prng(seed: number): (n: number) => number {
  let s = seed >>> 0;
  return (n) => {
    s = (Math.imul(s ^ (s >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0;
    s ^= s + Math.imul(s ^ (s >>> 7), 0x297a2d39);
    return ((s ^ (s >>> 14)) >>> 0) % n;
  };
}

/** A value made of literals and references to other variables (any of them: cycles happen). */
function value(random: (n: number) => number, names: readonly string[]): string {
  const parts: string[] = [];
  const count = 1 + random(4);
  for (let k = 0; k < count; k++) {
    const r = random(10);
    if (r < 5 && names.length > 0) parts.push(`{{${names[random(names.length)]}}}`);
    else if (r === 5) parts.push(`{{undefined${random(5)}}}`);
    else if (r === 6) parts.push(random(2) === 0 ? '{{' : '}}');
    else if (r === 7) parts.push(`{{$${['timestamp', 'uuid', 'clientOrderId', 'nope'][random(4)]}}}`);
    else parts.push('x'.repeat(1 + random(8)));
  }
  return parts.join('');
}

function variableGraph(random: (n: number) => number): string[] {
  const n = 1 + random(60);
  const names = Array.from({ length: n }, (_, i) => `v${i}`);
  const lines: string[] = [];
  for (let i = 0; i < n; i++) {
    const shape = random(4);
    // Doubling, a chain link, a link back (a cycle), or a random mixture.
    if (shape === 0 && i > 0) lines.push(`@v${i} = {{v${i - 1}}}{{v${i - 1}}}`);
    else if (shape === 1 && i > 0) lines.push(`@v${i} = {{v${i - 1}}}`);
    else if (shape === 2) lines.push(`@v${i} = {{v${random(n)}}}`);
    else lines.push(`@v${i} = ${value(random, names)}`);
  }
  return lines;
}

function request(random: (n: number) => number, names: readonly string[]): string {
  const lines = [`### r${random(1000)}`];
  if (random(3) === 0) lines.push('# @expect status 200');
  lines.push(random(2) === 0 ? 'POST /api/v3/order' : `GET /api/v3/${random(2) === 0 ? 'ping' : '{{v0}}'}`);
  const params = random(8);
  for (let k = 0; k < params; k++) {
    const name = ['symbol', 'side', 'type', 'quantity', 'price', 'recvWindow', 'newClientOrderId', 'x'][random(8)]!;
    lines.push(`${name} = ${value(random, names)}`);
  }
  if (random(4) === 0)
    lines.push('[json]', `{"symbol": "${value(random, names)}", "n": ${random(2) === 0 ? '{{v1}}' : '1'}}`);
  return lines.join('\n');
}

function input(seed: number): string {
  const random = prng(seed);
  const vars = variableGraph(random);
  const names = vars.map((l) => l.slice(1, l.indexOf(' ')));
  const preamble = Array.from(
    { length: random(4) },
    () => ['# @signed', '# @weight 2', '# @expect code 1', '# @bogus'][random(4)],
  );
  const requests = Array.from({ length: 1 + random(6) }, () => request(random, names));
  return [...vars, ...preamble, '', ...requests].join('\n');
}

const context: ResolveContext = {
  environment: BUILTIN_SANDBOX,
  now: () => 1_700_000_000_000,
  uuid: () => '00000000-0000-4000-8000-000000000000',
  clientOrderId: () => 'C'.repeat(32),
};

describe('fuzz: random files with graphs of variables are parsed, checked and resolved within a time bound', function () {
  this.timeout(120_000);

  it(`${INPUTS} inputs, each in under ${BOUND_MS} ms`, () => {
    let slowest = { ms: 0, seed: 0 };
    for (let seed = 1; seed <= INPUTS; seed++) {
      const text = input(seed);
      const { value: diagnostics, ms } = cpuTime(() => {
        const doc = parse(text);
        const found = checkDocument(doc, { environment: BUILTIN_SANDBOX });
        for (const r of doc.requests) resolveRequest(doc, r, context);
        return found;
      });
      assert.ok(Array.isArray(diagnostics));
      assert.ok(ms < BOUND_MS, `seed ${seed} took ${ms.toFixed(0)} ms:\n${text.slice(0, 2000)}`);
      if (ms > slowest.ms) slowest = { ms, seed };
    }
    console.log(`      slowest input: seed ${slowest.seed}, ${slowest.ms.toFixed(1)} ms`);
  });

  it('the worst case on purpose: 25 doublings, a 2,000-long chain and a cycle in one file, under the bound', () => {
    const lines = ['@d0 = ab'];
    for (let i = 1; i <= 25; i++) lines.push(`@d${i} = {{d${i - 1}}}{{d${i - 1}}}`);
    lines.push('@c0 = x');
    for (let i = 1; i < 2000; i++) lines.push(`@c${i} = {{c${i - 1}}}`);
    lines.push('@a = {{b}}', '@b = {{a}}');
    for (let i = 0; i < 200; i++) lines.push(`### ${i}`, 'POST /api/v3/order', `symbol = {{d25}}{{c1999}}{{a}}`);
    const { ms } = cpuTime(() => {
      const doc = parse(lines.join('\n'));
      checkDocument(doc, { environment: BUILTIN_SANDBOX });
      for (const r of doc.requests) assert.equal(resolveRequest(doc, r, context).ok, false);
    });
    assert.ok(ms < BOUND_MS, `${ms.toFixed(0)} ms`);
  });
});
