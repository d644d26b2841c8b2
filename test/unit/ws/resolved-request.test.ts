/**
 * The format side of WebSocket requests (docs/format.md, "WebSocket requests"): the directives
 * `# @listenKey`, `# @listen` and `# @expect message`, and resolveWsRequest (variables as for
 * HTTP requests, the URL from the environment's wsUrl, streams deduplicated, messages substituted).
 */
import assert from 'node:assert/strict';
import type { NamedEnvironment } from '../../../src/core/env/constants';
import { BUILTIN_SANDBOX } from '../../../src/core/env/constants';
import { parseEnvironmentFile } from '../../../src/core/env/schema';
import { DIRECTIVES, readOptions } from '../../../src/core/format/directives';
import { resolveRequest } from '../../../src/core/format/resolve';
import type { Diagnostic, Range } from '../../../src/core/format/model';
import { parse } from '../../../src/core/format/parser';
import type { ResolveContext } from '../../../src/core/format/variables';
import {
  checkMessageExpectations,
  environmentWsUrl,
  resolveWsRequest,
  type ResolvedWsRequest,
} from '../../../src/core/ws';

const ENV: NamedEnvironment = { name: 'test', baseUrl: 'https://api.example.com', key: 'main' };

function context(environment: NamedEnvironment = ENV): ResolveContext {
  return { environment, now: () => 1_700_000_000_000, uuid: () => 'u-u-i-d', clientOrderId: () => 'X'.repeat(32) };
}

function options(text: string) {
  const doc = parse(text);
  return readOptions(doc, doc.requests[0]);
}

function resolved(text: string, environment?: NamedEnvironment): ResolvedWsRequest {
  const doc = parse(text);
  const r = resolveWsRequest(doc, doc.requests[0]!, context(environment));
  assert.ok(r.ok, JSON.stringify(!r.ok && r.error));
  return r.value;
}

function problems(text: string, environment?: NamedEnvironment): Diagnostic[] {
  const doc = parse(text);
  const r = resolveWsRequest(doc, doc.requests[0]!, context(environment));
  assert.ok(!r.ok, 'resolved, though it should not');
  return r.error;
}

const at = (r: Range): string => `${r.startLine}:${r.startChar}-${r.endLine}:${r.endChar}`;

describe('WebSocket directives', () => {
  it('# @listenKey, # @listen DURATION and # @listen COUNT set the request options', () => {
    const o = options('# @listenKey\n# @listen 30s\n# @listen 50\nWS /ws\n[subscribe]\nspot@private.orders.v3.api\n');
    assert.deepEqual(o.diagnostics, []);
    assert.equal(o.options.listenKey, true);
    assert.deepEqual(o.options.listen, { durationMs: 30_000, count: 50 });
    assert.deepEqual(options('# @listen 500ms\nWS /ws\n').options.listen, { durationMs: 500 });
    assert.deepEqual(options('# @listen 2m\nWS /ws\n').options.listen, { durationMs: 120_000 });
    assert.deepEqual(options('# @listen 1h\nWS /ws\n').options.listen, { durationMs: 3_600_000 });
    const none = options('WS /ws\n').options;
    assert.equal(none.listenKey, false);
    assert.deepEqual(none.listen, {});
  });

  it('# @listen in the file header applies to every request; a request changes only what it writes', () => {
    const doc = parse('# @listen 10s\n\n### a\n# @listen 5\nWS /ws\n\n### b\nWS /ws\n');
    assert.deepEqual(readOptions(doc, doc.requests[0]).options.listen, { durationMs: 10_000, count: 5 });
    assert.deepEqual(readOptions(doc, doc.requests[1]).options.listen, { durationMs: 10_000 });
  });

  it('bad arguments are a bad-directive error on the directive, saying how to write it', () => {
    const cases: [string, RegExp][] = [
      ['# @listen soon', /Write `# @listen 30s` \(a duration: 500ms, 30s, 2m or 1h, at most 24 h\) or `# @listen 50`/],
      ['# @listen 0', /# @listen 30s/],
      ['# @listen 25h', /at most 24 h/],
      ['# @listen -5', /# @listen 30s/],
      ['# @listen 30 s', /# @listen 30s/],
      ['# @listenKey abc123', /Write `# @listenKey` alone/],
      ['# @expect message d.x', /`# @expect message PATH == VALUE`/],
      ['# @expect messages s == BTCUSDT', /# @expect message PATH == VALUE/],
    ];
    for (const [line, message] of cases) {
      const o = options(`${line}\nWS /ws\n`);
      assert.equal(o.diagnostics.length, 1, line);
      const d = o.diagnostics[0]!;
      assert.deepEqual([d.rule, d.severity, at(d.range)], ['bad-directive', 'error', `0:0-0:${line.length}`], line);
      assert.match(d.message, message, line);
    }
  });

  it('# @expect message PATH == VALUE is an expectation of kind message', () => {
    const o = options('# @expect message d.deals[0].S == 1\n# @expect json a == b\nWS /ws\n');
    assert.deepEqual(
      o.options.expectations.map((e) => [e.kind, 'path' in e ? e.path : '', 'value' in e ? e.value : '']),
      [
        ['message', 'd.deals[0].S', '1'],
        ['json', 'a', 'b'],
      ],
    );
  });

  it('completion and hover read the new directives from DIRECTIVES', () => {
    const names = DIRECTIVES.map((d) => d.name);
    for (const n of ['listenKey', 'listen', 'expect']) assert.ok(names.includes(n), n);
    assert.match(DIRECTIVES.find((d) => d.name === 'expect')!.usage, /@expect message PATH == VALUE/);
  });
});

describe('resolveWsRequest', () => {
  it('resolves variables as for HTTP requests, deduplicates streams in order and substitutes messages', () => {
    const r = resolved(
      [
        '@symbol = BTCUSDT',
        '### Trades',
        '# @name market',
        '# @listen 20',
        '# @expect message s == {{symbol}}',
        'WS /ws',
        '[subscribe]',
        'spot@public.deals.v3.api@{{symbol}}',
        'spot@public.limit.depth.v3.api@{{symbol}}@5',
        'spot@public.deals.v3.api@BTCUSDT',
        '[message]',
        '{"method": "PING", "note": "{{symbol}} at {{$timestamp}}"}',
      ].join('\n'),
    );
    assert.equal(r.title, 'Trades');
    assert.equal(r.name, 'market');
    assert.equal(r.url, 'wss://api.example.com/ws');
    assert.equal(r.envWsUrl, 'wss://api.example.com/ws');
    assert.equal(r.restBaseUrl, 'https://api.example.com');
    assert.deepEqual(r.streams, ['spot@public.deals.v3.api@BTCUSDT', 'spot@public.limit.depth.v3.api@BTCUSDT@5']);
    assert.deepEqual(r.messages, ['{"method": "PING", "note": "BTCUSDT at 1700000000000"}']);
    assert.equal(r.listenKey, false);
    assert.equal(r.keyProfile, 'main');
    assert.deepEqual(r.listen, { count: 20 });
    // Not judged here (the stream view, Copy as Code): kept as written.
    assert.deepEqual(
      r.expectations.map((e) => [e.path, e.text, e.line?.check]),
      [['s', 'message s == {{symbol}}', { op: '==', value: { text: '{{symbol}}' } }]],
    );
  });

  // Issue 34, point 2: `tradereq listen` judges them with their variables resolved, into the value only.
  it('for tradereq listen, a # @expect message value resolves as the request does, and pushes are judged against it', () => {
    const doc = parse(
      [
        '@symbol = BTCUSDT',
        '### Trades',
        '# @expect message s == {{symbol}}',
        'WS /ws',
        '[subscribe]',
        'spot@public.deals.v3.api@{{symbol}}',
      ].join('\n'),
    );
    const r = resolveWsRequest(doc, doc.requests[0]!, { ...context(), expectations: true });
    assert.ok(r.ok, JSON.stringify(r));
    assert.deepEqual(
      r.value.expectations.map((e) => [e.text, e.line?.check]),
      [['message s == BTCUSDT', { op: '==', value: { text: 'BTCUSDT' } }]],
    );
    assert.deepEqual(
      checkMessageExpectations(r.value.expectations, [{ s: 'ETHUSDT' }, { s: 'BTCUSDT' }]).map((x) => [
        x.text,
        x.passed,
      ]),
      [['@expect message s == BTCUSDT', true]],
    );
    const undefinedOne = parse(
      '### Trades\n# @expect message s == {{symbl}}\nWS /ws\n[subscribe]\nspot@public.deals.v3.api@BTCUSDT',
    );
    const refused = resolveWsRequest(undefinedOne, undefinedOne.requests[0]!, { ...context(), expectations: true });
    assert.ok(!refused.ok);
    assert.deepEqual(
      refused.error.map((d) => [d.rule, d.range.startLine]),
      [['undefined-variable', 1]],
    );
  });

  it("the URL: /ws is the environment's wsUrl, another path goes on its origin, a ws(s):// URL is taken as written", () => {
    const env = { ...ENV, wsUrl: 'wss://stream.example.com/raw/ws' };
    assert.equal(resolved('WS /ws', env).url, 'wss://stream.example.com/raw/ws');
    assert.equal(resolved('WS /ws?compress=0', env).url, 'wss://stream.example.com/raw/ws?compress=0');
    assert.equal(resolved('WS /other', env).url, 'wss://stream.example.com/other');
    assert.equal(resolved('WS ws://127.0.0.1:9999/ws', env).url, 'ws://127.0.0.1:9999/ws');
    assert.equal(resolved('WS ws://127.0.0.1:9999/ws', env).envWsUrl, 'wss://stream.example.com/raw/ws');
    assert.equal(resolved('@host = 127.0.0.1:1\nWS ws://{{host}}/ws').url, 'ws://127.0.0.1:1/ws');
    assert.equal(resolved('WS /ws', BUILTIN_SANDBOX).url, 'ws://127.0.0.1:8780/ws');
  });

  it('# @listenKey and # @key: the key profile of the request, else the environment', () => {
    const r = resolved('# @listenKey\n# @key other\nWS /ws\n[subscribe]\nspot@private.orders.v3.api');
    assert.equal(r.listenKey, true);
    assert.equal(r.keyProfile, 'other');
  });

  it('what cannot be resolved is reported with its range, and nothing is resolved', () => {
    const undefinedVar = problems('WS /ws\n[subscribe]\nspot@public.deals.v3.api@{{nope}}');
    assert.deepEqual(
      undefinedVar.map((d) => [d.rule, at(d.range)]),
      [['undefined-variable', '2:27-2:31']],
    );
    const badMessage = problems('@x = 1,\nWS /ws\n[message]\n{"a": {{x}} }');
    assert.deepEqual(
      badMessage.map((d) => [d.rule, at(d.range)]),
      [['json-invalid', '3:0-3:13']],
    );
    assert.match(badMessage[0]!.message, /The \[message\] is not a valid JSON object after substituting variables/);
    const key = problems('WS /ws?listenKey=abc');
    assert.deepEqual(
      key.map((d) => [d.rule, at(d.range)]),
      [['bad-target', '0:3-0:20']],
    );
    assert.match(key[0]!.message, /A listen key is a credential: never write it in a file/);
    assert.match(
      problems('WS http://example.com/ws')[0]!.message,
      /not a path starting with \/ or a ws:\/\/ or wss:\/\/ URL/,
    );
    assert.match(problems('WS ws://user:pw@example.com/ws')[0]!.message, /not a path/);
    assert.equal(problems('# @listen forever\nWS /ws')[0]!.rule, 'bad-directive');
    assert.equal(problems('WS /ws\n[message]\n{"a": 1')[0]!.rule, 'json-unclosed');
    assert.equal(problems('GET /api/v3/time')[0]!.rule, 'unknown-method');
  });
});

describe('resolveRequest (HTTP) on a WebSocket request', () => {
  it('refuses it, naming tradereq listen', () => {
    const doc = parse('WS /ws\n[subscribe]\nspot@public.deals.v3.api@BTCUSDT');
    const r = resolveRequest(doc, doc.requests[0]!, context());
    assert.ok(!r.ok);
    assert.deepEqual(
      r.error.map((d) => [d.rule, at(d.range)]),
      [['unknown-method', '0:0-0:2']],
    );
    assert.match(r.error[0]!.message, /not sent as an HTTP request: run it with `tradereq listen`/);
  });
});

describe('environments: wsUrl', () => {
  it('is optional, a ws:// or wss:// URL, and defaults to the base URL with the ws scheme and /ws', () => {
    const file = parseEnvironmentFile(
      JSON.stringify({ live: { baseUrl: 'https://api.example.com', wsUrl: 'wss://stream.example.com/ws' } }),
    );
    assert.ok(file.ok);
    assert.equal(environmentWsUrl(file.value['live']!), 'wss://stream.example.com/ws');
    assert.equal(environmentWsUrl({ baseUrl: 'http://127.0.0.1:8780/prefix' }), 'ws://127.0.0.1:8780/ws');
    assert.equal(environmentWsUrl(BUILTIN_SANDBOX), 'ws://127.0.0.1:8780/ws');
    for (const wsUrl of ['https://stream.example.com/ws', 'wss://user@host/ws', 'wss://h/ws?x=1', 'ws://']) {
      const bad = parseEnvironmentFile(JSON.stringify({ live: { baseUrl: 'https://api.example.com', wsUrl } }));
      assert.ok(!bad.ok, wsUrl);
      assert.match(bad.error, /live\.wsUrl: wsUrl must be a ws:\/\/ or wss:\/\/ URL/);
    }
  });
});
