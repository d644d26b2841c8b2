/**
 * Completion and hover latency, the first answer after an edit (target: p99 under 5 ms on 1,000-
 * and 10,000-request files). Each sample is what the editor does on a keystroke: the edit reaches
 * the document model (src/extension/documents.ts), which re-parses the touched block only
 * (`reparse`), then the provider answers from it. Edits land anywhere in the file (one near the
 * top moves every block below). Garbage collection is included: nothing is forced or left out,
 * the models of earlier versions become garbage as they would in the editor.
 * Run: npm run bench:completion (BENCH_SAMPLES=n edits per case, BENCH_SIZES=1000,10000)
 */
import assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';
import { completionsAt, type CompletionContext } from '../../src/core/editor/completion';
import { hoverAt } from '../../src/core/editor/hover';
import { BUILTIN_SANDBOX } from '../../src/core/env/schema';
import { parse, reparse, type LineChange, type ParsedDocument } from '../../src/core/format/parser';
import { makeFile } from './parse.bench';

const SAMPLES = Number(process.env.BENCH_SAMPLES || 2000);
const SIZES = (process.env.BENCH_SIZES || '1000,10000').split(',').map(Number);
const TARGET_P99_MS = 5;

const ctx: CompletionContext = {
  environment: BUILTIN_SANDBOX,
  symbols: Array.from({ length: 2000 }, (_, i) => ({ symbol: `SYM${i}USDT`, source: 'exchangeInfo' as const })),
};

interface Case {
  readonly name: string;
  /** The line typed, and where it goes relative to the request line (0: just above it). */
  readonly typed: string;
  readonly at: 'param' | 'above';
  readonly answer: (doc: ParsedDocument, lineText: string, line: number) => unknown;
}

const complete = (doc: ParsedDocument, lineText: string, line: number): unknown =>
  completionsAt(doc, lineText, line, lineText.length, ctx);

const CASES: readonly Case[] = [
  { name: 'completion, parameter name (a new line)', typed: '', at: 'param', answer: complete },
  { name: 'completion, enum value (side =)', typed: 'side = ', at: 'param', answer: complete },
  { name: 'completion, symbol (symbol =, 2,000 symbols)', typed: 'symbol = ', at: 'param', answer: complete },
  { name: 'completion, variable ({{)', typed: 'quantity = {{', at: 'param', answer: complete },
  { name: 'completion, directive (# @)', typed: '# @', at: 'above', answer: complete },
  {
    name: 'hover, error code (# @expect code)',
    typed: '# @expect code 700003',
    at: 'above',
    answer: (doc, lineText, line) => hoverAt(doc, lineText, line, 17, { environment: BUILTIN_SANDBOX }),
  },
  {
    name: 'hover, parameter (timeInForce)',
    typed: 'timeInForce = GTC',
    at: 'param',
    answer: (doc, lineText, line) => hoverAt(doc, lineText, line, 3, { environment: BUILTIN_SANDBOX }),
  },
];

/** What VS Code's `document.getText(new Range(from, 0, to, 0))` gives documents.ts. */
function textOf(lines: readonly string[]): (from: number, to: number) => string {
  return (from, to) => {
    const slice = lines.slice(from, Math.min(to, lines.length)).join('\n');
    return to < lines.length ? slice + '\n' : slice;
  };
}

function prng(seed: number): (n: number) => number {
  let s = seed >>> 0;
  return (n) => {
    s = (Math.imul(s ^ (s >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0;
    return ((s ^ (s >>> 13)) >>> 0) % n;
  };
}

function stats(samples: number[]): { median: number; p99: number; max: number; text: string } {
  samples.sort((a, b) => a - b);
  const at = (q: number): number => samples[Math.min(samples.length - 1, Math.floor(samples.length * q))]!;
  const [median, p99, max] = [at(0.5), at(0.99), samples[samples.length - 1]!];
  return {
    median,
    p99,
    max,
    text: `median ${median.toFixed(3)} ms, p99 ${p99.toFixed(3)} ms, max ${max.toFixed(3)} ms`,
  };
}

/** One case on one file: SAMPLES edits, each timed from the edit to the answer, each undone untimed. */
function runCase(c: Case, lines: string[], start: ParsedDocument, random: (n: number) => number): ParsedDocument {
  const times: number[] = [];
  let doc = start;
  for (let i = 0; i < SAMPLES; i++) {
    const request = doc.requests[random(doc.requests.length)]!;
    const requestLine = request.requestLine.range.startLine;
    // A new line typed after the request line (a parameter) or just above it (a comment).
    const line = c.at === 'param' ? requestLine + 1 : requestLine;
    const insert: LineChange = { fromLine: line - 1, oldToLine: line - 1, newToLine: line };
    lines.splice(line, 0, c.typed);
    const t = performance.now();
    doc = reparse(doc, insert, textOf(lines));
    c.answer(doc, c.typed, line);
    times.push(performance.now() - t);
    // Undo: the line removed again (also an edit the model follows).
    lines.splice(line, 1);
    doc = reparse(doc, { fromLine: line - 1, oldToLine: line, newToLine: line - 1 }, textOf(lines));
  }
  const s = stats(times);
  const verdict = s.p99 < TARGET_P99_MS ? 'met' : 'MISSED';
  console.log(`  ${c.name}: ${s.text} (${SAMPLES} edits; p99 < ${TARGET_P99_MS} ms ${verdict})`);
  return doc;
}

/** The way before the model was incremental, for comparison: the whole new text parsed, then the answer. */
function fullParseFigure(lines: string[], doc: ParsedDocument, random: (n: number) => number): string {
  const times: number[] = [];
  for (let i = 0; i < 40; i++) {
    const line = doc.requests[random(doc.requests.length)]!.requestLine.range.startLine + 1;
    const text = [...lines.slice(0, line), 'side = ', ...lines.slice(line)].join('\n');
    const t = performance.now();
    complete(parse(text), 'side = ', line);
    times.push(performance.now() - t);
  }
  return stats(times).text;
}

function main(): void {
  for (const size of SIZES) {
    const text = makeFile(size);
    const lines = text.split('\n');
    let doc = parse(text);
    const random = prng(size);
    console.log(`${size.toLocaleString('en')} requests, ${lines.length.toLocaleString('en')} lines:`);
    for (const c of CASES) doc = runCase(c, lines, doc, random);
    // The model followed every edit: it must be what a full parse of the text gives.
    const strip = ({ blocks: _b, truncated: _t, ...rest }: ParsedDocument): unknown => JSON.parse(JSON.stringify(rest));
    assert.deepEqual(strip(doc), strip(parse(lines.join('\n'))), 'the incremental model drifted from a full parse');
    console.log(
      `  for comparison, a whole-file parse + answer (the way before): ${fullParseFigure(lines, doc, random)}`,
    );
  }
}

main();
