/**
 * Completion latency on a 1,000-request file (target: each answer under 5 ms). Two figures: an
 * answer from the cached document model, and the first answer after an edit, which parses the
 * new version first (the model is shared with hover and diagnostics, one parse per version).
 * Run: npm run bench:completion
 */
import { performance } from 'node:perf_hooks';
import { completionsAt, type CompletionContext } from '../../src/core/editor/completion';
import { hoverAt } from '../../src/core/editor/hover';
import { BUILTIN_SANDBOX } from '../../src/core/env/schema';
import { parse } from '../../src/core/format/parser';
import { makeFile } from './parse.bench';

const ctx: CompletionContext = {
  environment: BUILTIN_SANDBOX,
  symbols: Array.from({ length: 2000 }, (_, i) => ({ symbol: `SYM${i}USDT`, source: 'exchangeInfo' as const })),
};

function stats(samples: number[]): string {
  samples.sort((a, b) => a - b);
  const at = (q: number) => samples[Math.min(samples.length - 1, Math.floor(samples.length * q))]!;
  return `median ${at(0.5).toFixed(3)} ms, p99 ${at(0.99).toFixed(3)} ms, max ${samples[samples.length - 1]!.toFixed(3)} ms`;
}

function main(): void {
  const text = makeFile(1000);
  const lines = text.split('\n');
  const doc = parse(text);
  // Positions in the last third of the file, where a lookup would cost most.
  const base = doc.requests[900]!.requestLine.range.startLine;
  const cases: [string, number, string][] = [
    ['parameter name', base + 1, ''],
    ['enum value (side =)', base + 2, 'side = '],
    ['symbol (symbol =, 2,000 symbols)', base + 1, 'symbol = '],
    ['variable ({{)', base + 4, 'quantity = {{'],
    ['directive (# @)', base - 1, '# @'],
  ];
  for (const [name, line, typed] of cases) {
    const lineText = typed;
    const cached: number[] = [];
    const afterEdit: number[] = [];
    for (let i = 0; i < 300; i++) {
      let t = performance.now();
      completionsAt(doc, lineText, line, typed.length, ctx);
      cached.push(performance.now() - t);
      // An edit: a new version of the text, parsed once, then the answer.
      const edited = [...lines.slice(0, line), typed, ...lines.slice(line + 1)].join('\n');
      t = performance.now();
      completionsAt(parse(edited), lineText, line, typed.length, ctx);
      afterEdit.push(performance.now() - t);
    }
    console.log(
      `completion, ${name}: cached model ${stats(cached)}; first answer after an edit (parse + answer) ${stats(afterEdit)}`,
    );
  }
  const hover: number[] = [];
  const codeLine = `# @expect code 700003`;
  for (let i = 0; i < 300; i++) {
    const t = performance.now();
    hoverAt(doc, codeLine, base - 1, 17, { environment: BUILTIN_SANDBOX });
    hover.push(performance.now() - t);
  }
  console.log(`hover on an error code: cached model ${stats(hover)}`);
  console.log(`(1,000 requests, ${lines.length} lines; target: each answer under 5 ms)`);
}

main();
