/**
 * `tradereq code` for a WebSocket request of the mexc deployment (binary pushes): the Node program
 * runs against a real WebSocket server that sends frames encoded by another implementation
 * (@bufbuild/protobuf, from the catalog's examples) and prints each push decoded as TradeReq shows
 * it; a frame that does not decode is said and skipped; a private request reads its listen key from
 * the environment and never prints it. The Python program compiles (python3, when present; its
 * protoc step cannot run here); Go and shell are refused with what to do instead.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { fromJson, toBinary, type JsonValue } from '@bufbuild/protobuf';
import { WebSocketServer, type WebSocket } from 'ws';
import { deploymentById } from '../../src/core/catalog/deployment';
import { codeRequestFrom, generateCode, programNeeds, type CodeLanguage } from '../../src/core/codegen';
import { pushProtoText } from '../../src/core/codegen/proto-text';
import { BUILTIN_SANDBOX, type NamedEnvironment } from '../../src/core/env/constants';
import { parse } from '../../src/core/format/parser';
import { PushDataV3ApiWrapperSchema } from '../../src/core/ws/proto/push_pb';
import { ROOT } from '../support/cli';

const MEXC = deploymentById('mexc')!;
const example = (kind: string): Record<string, JsonValue> =>
  JSON.parse(MEXC.streams.find((s) => s.kind === kind)!.example) as Record<string, JsonValue>;
const frame = (push: Record<string, JsonValue>): Buffer =>
  Buffer.from(toBinary(PushDataV3ApiWrapperSchema, fromJson(PushDataV3ApiWrapperSchema, push)));

function environment(wsBase: string): NamedEnvironment {
  return { ...BUILTIN_SANDBOX, name: 'mx', deployment: 'mexc', wsUrl: `${wsBase}/ws` };
}

function program(text: string, env: NamedEnvironment, language: CodeLanguage) {
  const doc = parse(text);
  const model = codeRequestFrom(doc, doc.requests[0]!, env);
  assert.ok(model.ok, JSON.stringify(model));
  return { model: model.value, program: generateCode(model.value, language) };
}

interface Run {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

function runNode(file: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [file, ...args], { env: { PATH: process.env['PATH'], ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

describe('tradereq code: a WebSocket request of mexc becomes a program that decodes its pushes', function () {
  this.timeout(60_000);
  let tmp: string;
  let server: WebSocketServer;
  let wsBase: string;
  const seen: { url: string; messages: string[] }[] = [];

  before(async () => {
    tmp = mkdtempSync(join(tmpdir(), 'tradereq-code-stream-'));
    // The program finds ws and protobufjs as an installed program would, in a node_modules beside it.
    symlinkSync(join(ROOT, 'node_modules'), join(tmp, 'node_modules'), 'junction');
    server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    server.on('connection', (socket: WebSocket, request) => {
      const conn = { url: request.url ?? '', messages: [] as string[] };
      seen.push(conn);
      socket.on('message', (data) => {
        const text = (data as Buffer).toString();
        conn.messages.push(text);
        if (!text.includes('SUBSCRIPTION')) return;
        socket.send(JSON.stringify({ id: 0, code: 0, msg: 'spot@public.aggre.deals.v3.api.pb@100ms@BTCUSDT' }));
        socket.send(frame(example('deals')));
        socket.send(Buffer.from([0x0a, 0xff, 0xff])); // a length past the end: not a wrapper
        socket.send(frame(example('kline')));
      });
    });
    await new Promise<void>((resolve) => server.on('listening', resolve));
    wsBase = `ws://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    rmSync(tmp, { recursive: true, force: true });
  });

  it('node: subscribes as the file says and prints each push as TradeReq shows it; a bad frame is said, not fatal', async () => {
    const text = [
      '@symbol = BTCUSDT',
      '### Trades and candles',
      'WS /ws',
      '[subscribe]',
      'spot@public.aggre.deals.v3.api.pb@100ms@{{symbol}}',
      'spot@public.kline.v3.api.pb@BTCUSDT@Min15',
      '[message]',
      '{"method":"PING"}',
    ].join('\n');
    const { model, program: code } = program(text, environment(wsBase), 'node');
    assert.ok(code.ok, JSON.stringify(code));
    assert.match(programNeeds(model), /subscribes 2 stream\(s\) and prints each push decoded/);
    assert.match(code.value, /spot@public\.aggre\.deals\.v3\.api\.pb@100ms@BTCUSDT: body publicAggreDeals/);
    const file = join(tmp, 'stream.mjs');
    writeFileSync(file, code.value);
    const run = await runNode(file, ['3']);
    assert.equal(run.status, 0, run.stderr);
    const lines = run.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as unknown);
    assert.deepEqual(lines, [example('deals'), example('kline')]);
    assert.match(run.stderr, /reply: "\{\\"id\\":0,\\"code\\":0/);
    assert.match(run.stderr, /a frame that does not decode \(3 bytes\)/);
    const conn = seen[seen.length - 1]!;
    assert.equal(conn.url, '/ws');
    assert.deepEqual(JSON.parse(conn.messages[0]!), {
      method: 'SUBSCRIPTION',
      params: ['spot@public.aggre.deals.v3.api.pb@100ms@BTCUSDT', 'spot@public.kline.v3.api.pb@BTCUSDT@Min15'],
    });
    assert.equal(conn.messages[1], '{"method":"PING"}');
  });

  it('node, a private request: the listen key comes from TRADEREQ_LISTEN_KEY into the URL only, never printed; without it, exit 2', async () => {
    const text =
      '# @listenKey\nWS /ws\n[subscribe]\nspot@private.orders.v3.api.pb\nspot@public.aggre.deals.v3.api.pb@10ms@BTCUSDT';
    const { program: code } = program(text, environment(wsBase), 'node');
    assert.ok(code.ok);
    const file = join(tmp, 'private.mjs');
    writeFileSync(file, code.value);
    const without = await runNode(file, ['1']);
    assert.equal(without.status, 2);
    assert.match(without.stderr, /set TRADEREQ_LISTEN_KEY to a listen key/);
    const key = MEXC.listenKey.examples[0]!;
    const run = await runNode(file, ['2'], { TRADEREQ_LISTEN_KEY: key });
    assert.equal(run.status, 0, run.stderr);
    assert.equal(seen[seen.length - 1]!.url, `/ws?listenKey=${key}`);
    assert.ok(!run.stdout.includes(key) && !run.stderr.includes(key), 'the key is never printed');
  });

  it('python: the same program with the class protoc makes; it compiles, and --write-proto writes the .proto it says', function () {
    const { program: code } = program(
      'WS /ws\n[subscribe]\nspot@public.aggre.deals.v3.api.pb@10ms@BTCUSDT',
      environment(wsBase),
      'python',
    );
    assert.ok(code.ok);
    assert.match(code.value, /protoc --python_out=\. push\.proto/);
    assert.match(code.value, /pip install websockets protobuf/);
    const python = spawnSync('python3', ['--version']);
    if (python.status !== 0) return this.skip();
    const file = join(tmp, 'stream.py');
    writeFileSync(file, code.value);
    const compiled = spawnSync('python3', ['-m', 'py_compile', file], { encoding: 'utf8' });
    assert.equal(compiled.status, 0, compiled.stderr);
    const wrote = spawnSync('python3', [file, '--write-proto'], { encoding: 'utf8', cwd: tmp });
    assert.equal(wrote.status, 0, wrote.stderr);
    assert.equal(spawnSync('cat', [join(tmp, 'push.proto')], { encoding: 'utf8' }).stdout, pushProtoText());
  });

  it("a file's hostile text stays inside the program's strings and comments (node --check)", () => {
    const text =
      '### */ \'); process.exit(9); // \u202e\nWS /ws\n[subscribe]\nspot@public.aggre.deals.v3.api.pb@10ms@BTC\'USDT\\\n[message]\n{"a": "`${x}` \\u2028"}';
    const node = program(text, environment(wsBase), 'node').program;
    assert.ok(node.ok);
    const file = join(tmp, 'hostile.mjs');
    writeFileSync(file, node.value);
    const checked = spawnSync(process.execPath, ['--check', file], { encoding: 'utf8' });
    assert.equal(checked.status, 0, checked.stderr);
    assert.ok(!node.value.includes('\u202e'), 'a bidirectional control is shown escaped');
  });

  it('go and shell are refused, saying what each needs; a JSON deployment keeps the REST-only refusal', () => {
    const ws = 'WS /ws\n[subscribe]\nspot@public.aggre.deals.v3.api.pb@10ms@BTCUSDT';
    const go = program(ws, environment(wsBase), 'go').program;
    assert.ok(!go.ok);
    assert.match(go.error, /protoc --go_out=\. .*protoc-gen-go.*proto\.Unmarshal.*--lang node/);
    const shell = program(ws, environment(wsBase), 'shell').program;
    assert.ok(!shell.ok);
    assert.match(shell.error, /a shell script cannot decode: use --lang node/);
    const doc = parse('WS /ws\n[subscribe]\nspot@public.deals.v3.api@BTCUSDT');
    const spec = codeRequestFrom(doc, doc.requests[0]!, BUILTIN_SANDBOX);
    assert.ok(!spec.ok);
    assert.match(spec.error.message, /with JSON pushes .*a WebSocket request cannot become a program/);
  });

  it("the .proto the programs carry is TradeReq's push.proto: it describes the same messages and fields", () => {
    const text = pushProtoText();
    assert.match(text, /^syntax = "proto3";\n\npackage tradereq\.push;\n/);
    assert.match(text, /message PushDataV3ApiWrapper \{\n {2}string channel = 1;\n {2}optional string symbol = 3;/);
    assert.match(text, / {4}PublicAggreDealsV3Api publicAggreDeals = 314;/);
    assert.match(text, / {2}repeated PublicAggreDealsV3ApiItem deals = 1;/);
  });
});
