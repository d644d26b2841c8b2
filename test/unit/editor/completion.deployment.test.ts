/** Completion and hover under an environment's deployment (issue 33): its endpoints, paths, parameters and terms. */
import assert from 'node:assert/strict';
import { completionsAt, type CompletionContext } from '../../../src/core/editor/completion';
import { hoverAt } from '../../../src/core/editor/hover';
import { BUILTIN_SANDBOX, type NamedEnvironment } from '../../../src/core/env/schema';
import { parse } from '../../../src/core/format/parser';

const MEXC: NamedEnvironment = { name: 'live', baseUrl: 'https://api.mexc.com', deployment: 'mexc' };

/** The text at the `|` of `text`: its clean text, line and character. */
function at(text: string): { clean: string; line: number; character: number } {
  const lines = text.split('\n');
  const line = lines.findIndex((l) => l.includes('|'));
  return { clean: text.replace('|', ''), line, character: lines[line]!.indexOf('|') };
}

function complete(text: string, environment: NamedEnvironment): string[] {
  const { clean, line, character } = at(text);
  const ctx: CompletionContext = { environment, symbols: [] };
  // In the order the editor shows them.
  return completionsAt(parse(clean), clean.split('\n')[line]!, line, character, ctx)
    .sort((a, b) => (a.sortText ?? a.label).localeCompare(b.sortText ?? b.label))
    .map((e) => e.label);
}

function hover(text: string, environment: NamedEnvironment): string {
  const { clean, line, character } = at(text);
  return hoverAt(parse(clean), clean.split('\n')[line]!, line, character, { environment })?.markdown ?? '';
}

describe('editor: completion and hover follow the environment’s deployment', () => {
  it("offers the deployment's paths after a method, the spec's without one", () => {
    assert.ok(complete('GET |', MEXC).includes('/api/v3/capital/config/getall'));
    assert.ok(!complete('GET |', BUILTIN_SANDBOX).includes('/api/v3/capital/config/getall'));
  });

  it("offers the parameters of the deployment's endpoint, required first", () => {
    const names = complete('POST /api/v3/capital/withdraw\n|\n', MEXC);
    assert.deepEqual(names.slice(0, 3), ['coin', 'address', 'amount']);
    assert.ok(names.includes('netWork'));
    assert.deepEqual(complete('POST /api/v3/capital/withdraw\n|\n', BUILTIN_SANDBOX).slice(0, 1), ['[query]']);
  });

  it('offers documented values (kline intervals)', () => {
    assert.deepEqual(complete('GET /api/v3/klines\ninterval = |\n', MEXC).slice(0, 3), ['1m', '5m', '15m']);
  });

  it('hover on an endpoint names its permission, its weight without a symbol and the documentation’s label', () => {
    const day = hover('GET /api/v3/ticker/2|4hr\n', MEXC);
    assert.match(day, /weight 1, 40 without symbol/);
    const account = hover('GET /api/v3/acc|ount\n', MEXC);
    assert.match(account, /Permission: `SPOT_ACCOUNT_READ`/);
    assert.match(account, /labels its weight per IP; signed, it is counted per account/);
    assert.doesNotMatch(hover('GET /api/v3/acc|ount\n', BUILTIN_SANDBOX), /Permission/);
  });

  it('hover on a path the deployment leaves undocumented says why', () => {
    assert.match(
      hover('GET /api/v3/margin/lo|an\n', MEXC),
      /is not documented by MEXC Spot v3: the margin endpoints were withdrawn/,
    );
    assert.match(hover('GET /api/v3/noth|ing\n', MEXC), /is not in the endpoint catalog of MEXC Spot v3/);
    assert.match(hover('GET /api/v3/noth|ing\n', BUILTIN_SANDBOX), /is not in TradeReq's endpoint catalog/);
  });
});
