/**
 * `tradereq code` for a WebSocket request of a deployment whose pushes are binary (Protocol
 * Buffers, mexc): a program that connects, subscribes the request's streams, sends its
 * `[message]`s, and prints each push decoded, in the shape TradeReq shows it
 * (`{channel, symbol, …, <body>: {…}}`). Node parses TradeReq's push.proto as it runs
 * (protobufjs: nothing to generate); Python needs the class protoc makes from it (the program
 * writes the .proto and says how); Go needs a package protoc-gen-go makes, and a shell cannot
 * decode binary frames: for those two, the refusal says so and how.
 */
import { deploymentOf } from '../catalog/deployment';
import { readStreamName } from '../catalog/stream-names';
import type { NamedEnvironment } from '../env/constants';
import type { RequestBlock, TradeReqDocument } from '../format/model';
import { badInput, type PrepareFailure } from '../request/prepare';
import { err, ok, type Result } from '../result';
import { resolveWsRequest } from '../ws/resolved-request';
import type { CodeLanguage } from './program-model';
import { PUSH_WRAPPER, pushProtoText } from './proto-text';
import { commentBlock, commentText, hex, quoted } from './text';

/** A WebSocket request as a program must make it: where, what it subscribes, what it sends. */
export interface StreamCodeRequest {
  readonly kind: 'stream';
  readonly title: string;
  /** ws:// or wss://, without a listen key. */
  readonly url: string;
  readonly streams: readonly string[];
  readonly messages: readonly string[];
  /** `# @listenKey`: the program reads one from LISTEN_KEY_ENV. */
  readonly listenKey: boolean;
  readonly deploymentTitle: string;
  /** Each stream with the body its pushes carry, where the deployment's catalog knows the name. */
  readonly bodies: readonly { readonly stream: string; readonly body: string }[];
}

/** Where a program reads the listen key of a private stream (never printed). */
const LISTEN_KEY_ENV = 'TRADEREQ_LISTEN_KEY';
/** A PING this often keeps a subscribed connection that receives nothing open (the deployment closes it after 60 s). */
const PING_EVERY_MS = 20_000;

/** The stream request of a binary deployment's WebSocket request; undefined for a JSON deployment's. */
export function streamRequestFrom(
  doc: TradeReqDocument,
  request: RequestBlock,
  environment: NamedEnvironment,
): Result<StreamCodeRequest, PrepareFailure> | undefined {
  const deployment = deploymentOf(environment);
  if (deployment.streamEncoding !== 'protobuf') return undefined;
  const resolved = resolveWsRequest(doc, request, {
    environment,
    now: () => Date.now(),
    uuid: () => '00000000-0000-4000-8000-000000000000',
    clientOrderId: () => 'tradereq',
  });
  if (!resolved.ok) return err(badInput(resolved.error, resolved.error[0]?.message ?? 'the request does not resolve'));
  const r = resolved.value;
  const bodies = r.streams.flatMap((stream) => {
    const read = readStreamName(stream, deployment);
    return read.ok && read.value.info.body ? [{ stream, body: read.value.info.body.name }] : [];
  });
  return ok({
    kind: 'stream',
    title: r.title,
    url: r.url,
    streams: r.streams,
    messages: r.messages,
    listenKey: r.listenKey,
    deploymentTitle: deployment.title,
    bodies,
  });
}

/** What the program needs to run, said after it is written. */
export function streamProgramNeeds(model: StreamCodeRequest): string {
  const key = model.listenKey ? ` It reads a listen key from ${LISTEN_KEY_ENV} and never prints it.` : '';
  return `It subscribes ${model.streams.length} stream(s) and prints each push decoded, one JSON line each; an argument N stops after N pushes.${key}`;
}

/** The program in `language`, or why that language gets none (and what to do instead). */
export function generateStreamProgram(model: StreamCodeRequest, language: CodeLanguage): Result<string, string> {
  switch (language) {
    case 'node':
      return ok(nodeProgram(model));
    case 'python':
    case 'python-requests':
      return ok(pythonProgram(model));
    case 'go':
      return err(
        `the pushes of ${model.deploymentTitle} are binary Protocol Buffers, and Go decodes them only with a package generated from the .proto: save TradeReq's push.proto (the Python program writes it: --write-proto), run protoc --go_out=. --go_opt=Mpush.proto=./pushpb push.proto (protoc-gen-go: go install google.golang.org/protobuf/cmd/protoc-gen-go@latest), and decode each binary frame with proto.Unmarshal into pushpb.PushDataV3ApiWrapper. --lang node writes a program that needs nothing generated`,
      );
    case 'shell':
      return err(
        `the pushes of ${model.deploymentTitle} are binary Protocol Buffers, which a shell script cannot decode: use --lang node (it parses the .proto as it runs) or --lang python (with a class protoc makes)`,
      );
  }
}

function about(model: StreamCodeRequest, needs: readonly string[]): string[] {
  return [
    commentText(model.title),
    '',
    `Subscribes ${model.streams.map(commentText).join(', ')} on ${commentText(model.url)}`,
    `and prints each push of ${model.deploymentTitle}, binary Protocol Buffers, decoded as one JSON line:`,
    '{channel, symbol, symbolId, createTime, sendTime, <body>: {...}}, decimals as text.',
    ...model.bodies.map((b) => `  ${commentText(b.stream)}: body ${b.body}`),
    'N: stop after N pushes (else it runs until stopped).',
    ...(model.listenKey
      ? [
          `A private stream: set ${LISTEN_KEY_ENV} to a listen key (POST /api/v3/userDataStream, signed);`,
          'the program sends it only in the URL and never prints it.',
        ]
      : []),
    ...needs,
  ];
}

function jsString(text: string): string {
  return quoted(text, { lastHexByte: 0xff, astral: (c) => '\\u{' + hex(c, 1) + '}' });
}

function pyString(text: string): string {
  return quoted(text, { lastHexByte: 0xff, astral: (c) => '\\U' + hex(c, 8) });
}

function nodeProgram(model: StreamCodeRequest): string {
  const needs = [
    'Run: node FILE.mjs [N]. Needs: Node 18 or later, npm install ws protobufjs.',
    "The schema is TradeReq's push.proto, parsed as the program starts: nothing to generate.",
    'int64 times become numbers (exact for any time in milliseconds).',
  ];
  return [
    '#!/usr/bin/env node',
    ...commentBlock(about(model, needs), '//'),
    "import WebSocket from 'ws';",
    "import protobuf from 'protobufjs';",
    '',
    `const URL = ${jsString(model.url)};`,
    `const STREAMS = [${model.streams.map(jsString).join(', ')}];`,
    `const MESSAGES = [${model.messages.map(jsString).join(', ')}];`,
    `const PUSH_PROTO = ${jsString(pushProtoText())};`,
    `const Wrapper = protobuf.parse(PUSH_PROTO, { keepCase: true }).root.lookupType(${jsString(PUSH_WRAPPER)});`,
    'const BODIES = Wrapper.oneofs.body.oneof;',
    '',
    '/** One binary frame as TradeReq shows it: the wrapper, and the body under its name with every field. */',
    'function decoded(bytes) {',
    '  const m = Wrapper.decode(bytes);',
    '  const out = Wrapper.toObject(m, { longs: Number });',
    '  const body = BODIES.find((name) => m[name] != null);',
    '  if (body !== undefined)',
    '    out[body] = Wrapper.fields[body].resolvedType.toObject(m[body], { longs: Number, defaults: true, arrays: true });',
    '  return out;',
    '}',
    '',
    ...nodeMain(model),
  ].join('\n');
}

function nodeMain(model: StreamCodeRequest): string[] {
  return [
    'const limit = process.argv[2] === undefined ? Infinity : Number(process.argv[2]);',
    'let url = URL;',
    ...(model.listenKey
      ? [
          `const listenKey = process.env.${LISTEN_KEY_ENV};`,
          'if (!listenKey) {',
          `  console.error('set ${LISTEN_KEY_ENV} to a listen key: this request subscribes private streams');`,
          '  process.exit(2);',
          '}',
          "url += (url.includes('?') ? '&' : '?') + 'listenKey=' + encodeURIComponent(listenKey);",
        ]
      : []),
    'const socket = new WebSocket(url);',
    'let pushes = 0;',
    'let ping;',
    "socket.on('open', () => {",
    "  if (STREAMS.length > 0) socket.send(JSON.stringify({ method: 'SUBSCRIPTION', params: STREAMS }));",
    '  for (const m of MESSAGES) socket.send(m);',
    `  ping = setInterval(() => socket.send('{"method":"PING"}'), ${PING_EVERY_MS});`,
    '});',
    "socket.on('message', (data, isBinary) => {",
    '  if (!isBinary) {',
    "    console.error('reply: ' + JSON.stringify(data.toString())); // as JSON text: a server's control characters stay visible",
    '    return;',
    '  }',
    '  try {',
    '    console.log(JSON.stringify(decoded(data)));',
    '  } catch (e) {',
    "    console.error('a frame that does not decode (' + data.length + ' bytes): ' + e.message);",
    '  }',
    '  if (++pushes >= limit) socket.close();',
    '});',
    "socket.on('close', () => clearInterval(ping));",
    "socket.on('error', (e) => {",
    "  console.error('connection failed: ' + e.message);",
    '  process.exitCode = 1;',
    '});',
    '',
  ];
}

function pythonProgram(model: StreamCodeRequest): string {
  const needs = [
    'Run: python3 FILE.py [N]. Needs: Python 3.9 or later, pip install websockets protobuf, and the class protoc makes of',
    "TradeReq's push.proto: run this program with --write-proto (it writes push.proto beside it),",
    'then: protoc --python_out=. push.proto   (which writes push_pb2.py).',
    "int64 times are text, as protobuf's JSON mapping writes them.",
  ];
  return [
    '#!/usr/bin/env python3',
    ...commentBlock(about(model, needs), '#'),
    'import asyncio',
    'import json',
    'import os',
    'import sys',
    'import urllib.parse',
    'from pathlib import Path',
    '',
    `URL = ${pyString(model.url)}`,
    `STREAMS = [${model.streams.map(pyString).join(', ')}]`,
    `MESSAGES = [${model.messages.map(pyString).join(', ')}]`,
    `PUSH_PROTO = ${pyString(pushProtoText())}`,
    '',
    'if sys.argv[1:2] == ["--write-proto"]:',
    '    Path(__file__).with_name("push.proto").write_text(PUSH_PROTO)',
    '    print("wrote push.proto; now: protoc --python_out=. push.proto")',
    '    sys.exit(0)',
    'try:',
    '    import push_pb2',
    '    import websockets',
    '    from google.protobuf.json_format import MessageToDict',
    'except ImportError as e:',
    '    sys.exit(f"{e.name} is missing: pip install websockets protobuf; python3 {sys.argv[0]} --write-proto; protoc --python_out=. push.proto")',
    '',
    ...pythonMain(model),
  ].join('\n');
}

function pythonMain(model: StreamCodeRequest): string[] {
  return [
    '',
    'def decoded(data: bytes) -> dict:',
    '    """One binary frame as TradeReq shows it: the wrapper, and the body under its name."""',
    '    m = push_pb2.PushDataV3ApiWrapper()',
    '    m.ParseFromString(data)',
    '    out = {"channel": m.channel}',
    '    for name in ("symbol", "symbolId", "createTime", "sendTime"):',
    '        if m.HasField(name):',
    '            out[name] = getattr(m, name)',
    '    body = m.WhichOneof("body")',
    '    if body:',
    '        out[body] = MessageToDict(getattr(m, body), preserving_proto_field_name=True)',
    '    return out',
    '',
    '',
    'async def main(limit: float) -> None:',
    '    url = URL',
    ...(model.listenKey
      ? [
          `    listen_key = os.environ.get("${LISTEN_KEY_ENV}")`,
          '    if not listen_key:',
          `        sys.exit("set ${LISTEN_KEY_ENV} to a listen key: this request subscribes private streams")`,
          '    url += ("&" if "?" in url else "?") + "listenKey=" + urllib.parse.quote(listen_key, safe="")',
        ]
      : []),
    `    async with websockets.connect(url, ping_interval=None) as socket:`,
    '        if STREAMS:',
    '            await socket.send(json.dumps({"method": "SUBSCRIPTION", "params": STREAMS}))',
    '        for m in MESSAGES:',
    '            await socket.send(m)',
    '        pushes = 0',
    '        while pushes < limit:',
    '            try:',
    `                frame = await asyncio.wait_for(socket.recv(), ${PING_EVERY_MS / 1000})`,
    '            except asyncio.TimeoutError:',
    '                await socket.send(\'{"method":"PING"}\')',
    '                continue',
    '            if isinstance(frame, str):',
    '                print("reply: " + json.dumps(frame), file=sys.stderr)  # control characters stay visible',
    '                continue',
    '            try:',
    '                print(json.dumps(decoded(frame)), flush=True)',
    '            except Exception as e:',
    '                print(f"a frame that does not decode ({len(frame)} bytes): {e}", file=sys.stderr)',
    '            pushes += 1',
    '',
    '',
    'asyncio.run(main(float(sys.argv[1]) if len(sys.argv) > 1 else float("inf")))',
    '',
  ];
}
