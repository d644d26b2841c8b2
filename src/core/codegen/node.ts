/**
 * JavaScript for Node 18 or later, as an ES module: the built-in fetch and node:crypto, nothing to
 * install. The query and body are built with a strict encoder of its own (encodeURIComponent
 * leaves ! ' ( ) * as they are).
 */
import type { NamedValue } from './program-model';
import {
  bodyStatements,
  makePieces,
  pieceImports,
  programFunctions,
  renderValue,
  type BodyStatements,
  type ValueRenderings,
} from './renderings';
import {
  BASE_URL_ENV,
  DEADLINE_SECONDS,
  MAX_RESPONSE_BYTES,
  NOT_CONFIRMED_EXIT,
  UNKNOWN_OUTCOME,
  TIMESTAMP_ENV,
  type Plan,
} from './plan';
import { aboutLines, commentBlock, commentText, hex, notConfirmedNotes, NOTES, quoted } from './text';

/** A JavaScript string literal holding exactly `text`, in printable ASCII. */
function jsString(text: string): string {
  return quoted(text, { lastHexByte: 0xff, astral: (c) => '\\u{' + hex(c, 1) + '}' });
}

/** Appends the list's declaration to `lines`, one line a pair (pushed, not spread: a list may be long). */
function jsPairs(lines: string[], name: string, list: readonly NamedValue[]): void {
  if (list.length === 0) {
    lines.push(`const ${name} = [];`);
    return;
  }
  lines.push(`const ${name} = [`);
  for (const p of list) lines.push(`  [${jsString(p.name)}, ${renderValue(p.value, NODE)}],`);
  lines.push('];');
}

function constants(plan: Plan): string[] {
  const r = plan.request;
  const lines = [
    `const BASE_URL = ${jsString(plan.baseUrl)};`,
    `const METHOD = ${jsString(r.method)};`,
    `const PATH = ${jsString(r.path)};`,
  ];
  if (r.signed) {
    lines.push(
      `const API_KEY_ENV = ${jsString(r.keyEnv.apiKey)};`,
      `const SECRET_KEY_ENV = ${jsString(r.keyEnv.secretKey)};`,
    );
  }
  if (r.parameters.length > 0) {
    lines.push('const PARAMETERS = [');
    for (const p of r.parameters) lines.push(`  [${jsString(p.name)}, ${jsString(commentText(p.description))}],`);
    lines.push('];');
  }
  if (r.confirm) {
    const notes = notConfirmedNotes(r.confirm.reason);
    lines.push(
      `const NO_TERMINAL_NOTE = ${jsString(notes.noTerminal)};`,
      `const ANSWERED_NO_NOTE = ${jsString(notes.answeredNo)};`,
    );
  }
  lines.push(`const MAX_RESPONSE_BYTES = ${MAX_RESPONSE_BYTES};`, `const UNKNOWN_NOTE = ${jsString(UNKNOWN_OUTCOME)};`);
  return lines;
}

const HELPERS = String.raw`function fail(message, exitCode = 2) {
  process.stderr.write("error: " + message + "\n");
  process.exit(exitCode);
}

/** Strict percent-encoding: every UTF-8 byte outside A-Z a-z 0-9 - _ . ~ as %XX, upper-case hex. */
function encode(text) {
  let out = "";
  for (const b of Buffer.from(text, "utf8")) {
    const unreserved =
      (b >= 0x41 && b <= 0x5a) || (b >= 0x61 && b <= 0x7a) || (b >= 0x30 && b <= 0x39) ||
      b === 0x2d || b === 0x5f || b === 0x2e || b === 0x7e;
    out += unreserved ? String.fromCharCode(b) : "%" + b.toString(16).toUpperCase().padStart(2, "0");
  }
  return out;
}

function encodeParams(params) {
  return params.map(([name, value]) => encode(name) + "=" + encode(value)).join("&");
}

function withPair(text, pair) {
  return text === "" ? pair : text + "&" + pair;
}

function baseUrl() {
  const url = process.env["${BASE_URL_ENV}"] || BASE_URL;
  if (!/^https?:\/\/\S+$/.test(url)) fail("${BASE_URL_ENV} must be an http:// or https:// URL");
  return url.replace(/\/+$/, "");
}

/** The answer as text; control characters other than line feed and tab shown as "?". */
function shown(data) {
  return data.toString("utf8").replace(/[\x00-\x08\x0b-\x1f\x7f-\x9f]/g, "?");
}`;

const ARGUMENTS = String.raw`function usage() {
  const lines = ["usage: " + basename(process.argv[1] ?? "program") + " " + PARAMETERS.map(([name]) => name).join(" ")];
  for (const [name, description] of PARAMETERS) lines.push("  " + name + ": " + description);
  process.stderr.write(lines.join("\n") + "\n");
  process.exit(2);
}

/** The program's parameters, in order, from the command line or else the environment. */
function readArguments() {
  const given = process.argv.slice(2);
  if (given.length > PARAMETERS.length) usage();
  const values = new Map();
  PARAMETERS.forEach(([name], i) => {
    const value = i < given.length ? given[i] : process.env[name] ?? "";
    if (value === "") usage();
    values.set(name, value);
  });
  return values;
}`;

const KEYS = String.raw`/** The keys from the environment; they are never printed. */
function readKeys() {
  const apiKey = process.env[API_KEY_ENV] ?? "";
  const secretKey = process.env[SECRET_KEY_ENV] ?? "";
  if (apiKey === "" || secretKey === "") {
    fail("set the environment variables " + API_KEY_ENV + " (the API key) and " + SECRET_KEY_ENV +
      " (the secret key): this program holds no key");
  }
  if (!/^[\x21-\x7e]+$/.test(apiKey)) {
    fail("the API key in " + API_KEY_ENV + " is not one word of printable ASCII: check how it was set");
  }
  return [apiKey, secretKey];
}`;

const TIMESTAMP = String.raw`/** Now in milliseconds; ${TIMESTAMP_ENV} fixes it, for tests only. */
function nowMs() {
  const fixed = process.env["${TIMESTAMP_ENV}"] ?? "";
  if (fixed !== "") {
    if (!/^[0-9]{1,16}$/.test(fixed)) fail("${TIMESTAMP_ENV} must be a whole number of milliseconds");
    return fixed;
  }
  return String(Date.now());
}`;

const CLIENT_ORDER_ID = String.raw`/** 32 random characters of A-Z a-z 0-9, as TradeReq's {{$clientOrderId}}. */
function newClientOrderId() {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  let id = "";
  for (let i = 0; i < 32; i++) id += alphabet[randomInt(alphabet.length)];
  return id;
}`;

/** Values in JavaScript (see renderings.ts); the imports are names from node:crypto. */
const NODE: ValueRenderings = {
  empty: '""',
  join: ' + ',
  apiKey: 'apiKey',
  text: (p) => jsString(p.text),
  parameter: (p) => `args.get(${jsString(p.parameter)})`,
  timestamp: { variable: 'timestamp', make: 'const timestamp = nowMs();', helper: TIMESTAMP, imports: [] },
  clientOrderId: {
    variable: 'clientOrderId',
    make: 'const clientOrderId = newClientOrderId();',
    helper: CLIENT_ORDER_ID,
    imports: ['randomInt'],
  },
  uuid: { variable: 'requestUuid', make: 'const requestUuid = randomUUID();', imports: ['randomUUID'] },
};

const CONFIRM = String.raw`/** Text shown on one line: control, invisible and bidirectional characters as "?". */
function oneLine(text) {
  return text.replace(/[\x00-\x1f\x7f-\x9f\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff]/g, "?");
}

/** --yes, the program's one option, taken out of the arguments: it sends without asking. */
function takeYes() {
  const yes = process.argv.includes("--yes", 2);
  process.argv = process.argv.filter((arg, i) => i < 2 || arg !== "--yes");
  return yes;
}

/** Asks before sending (see the top of this file); --yes answers for a run without a terminal. */
async function confirm(order, yes) {
  if (yes) return;
  const what = oneLine(order);
  if (!process.stdin.isTTY) fail(what + NO_TERMINAL_NOTE, ${NOT_CONFIRMED_EXIT});
  const where = oneLine(baseUrl());
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  // The end of input (Ctrl-D) closes the interface without an answer: that is a no.
  const closed = new Promise((resolve) => rl.once("close", () => resolve("")));
  let answer = "";
  try {
    answer = await Promise.race([rl.question("Send " + what + " to " + where + "? [y/N] "), closed]);
  } catch {
    answer = "";
  } finally {
    rl.close();
  }
  if (!/^y(es)?$/i.test(answer.trim())) fail(what + ANSWERED_NO_NOTE, ${NOT_CONFIRMED_EXIT});
}`;

const SEND = String.raw`/** One exchange: a redirect is an answer to print, never followed (it could carry the key elsewhere). */
async function send(url, headers, body) {
  try {
    const response = await fetch(url, {
      method: METHOD,
      headers,
      body: body === "" ? undefined : body,
      redirect: "manual",
      signal: AbortSignal.timeout(${DEADLINE_SECONDS * 1000}),
    });
    const chunks = [];
    let size = 0;
    for await (const chunk of response.body ?? []) {
      chunks.push(chunk);
      size += chunk.length;
      if (size >= MAX_RESPONSE_BYTES) break;
    }
    return [response.status, Buffer.concat(chunks).subarray(0, MAX_RESPONSE_BYTES)];
  } catch (error) {
    const why = error?.cause?.message ?? error?.message ?? String(error);
    return fail("no answer from " + url.split("?")[0] + " (" + why + "): " + UNKNOWN_NOTE, 3);
  }
}`;

function signing(plan: Plan): string[] {
  if (!plan.request.signed) return [];
  const target = plan.request.signaturePlacement === 'body' ? 'body' : 'queryString';
  return [
    `// ${NOTES.signing}`,
    'const totalParams = queryString + body;',
    'const signature = createHmac("sha256", secretKey).update(totalParams, "utf8").digest("hex");',
    `${target} = withPair(${target}, "signature=" + signature);`,
  ];
}

const BODY: BodyStatements = {
  none: ['let body = "";'],
  form: ['let body = encodeParams(form);'],
  json: (value) => [`// ${NOTES.jsonBody}`, `let body = ${value};`],
};

function build(plan: Plan): string[] {
  const r = plan.request;
  const lines: string[] = [];
  if (r.confirm) lines.push('const yes = takeYes();');
  if (r.parameters.length > 0) lines.push('const args = readArguments();');
  if (r.signed) lines.push('const [apiKey, secretKey] = readKeys();');
  lines.push(...makePieces(plan, NODE, 'beforeAsking'));
  if (r.confirm) {
    lines.push(`await confirm(${renderValue(r.confirm.order, NODE)}, yes);`);
    lines.push(...makePieces(plan, NODE, 'afterAnswer'));
  }
  jsPairs(lines, 'query', r.query);
  if (plan.body === 'form') jsPairs(lines, 'form', r.form);
  if (plan.addTimestamp) {
    lines.push(`// ${NOTES.addedTimestamp}`);
    lines.push(`${plan.addTimestamp}.push(["timestamp", timestamp]);`);
  }
  lines.push('let queryString = encodeParams(query);');
  lines.push(...bodyStatements(plan, BODY, NODE));
  for (const line of signing(plan)) lines.push(line);
  lines.push('const headers = [');
  for (const h of plan.headers) lines.push(`  [${jsString(h.name)}, ${renderValue(h.value, NODE, true)}],`);
  lines.push('];');
  return lines;
}

const MAIN = `const url = baseUrl() + PATH + (queryString === "" ? "" : "?" + queryString);
const [status, data] = await send(url, headers, body);
process.stdout.write(status + "\\n" + shown(data) + "\\n");
if (status >= 200 && status < 300) {
  process.exitCode = 0;
} else if (status >= 500) {
  process.stderr.write("status " + status + ": " + UNKNOWN_NOTE + "\\n");
  process.exitCode = 3;
} else {
  process.exitCode = 1;
}`;

function imports(plan: Plan): string[] {
  const crypto: string[] = [];
  if (plan.request.signed) crypto.push('createHmac');
  crypto.push(...pieceImports(plan, NODE));
  const lines = ['import { Buffer } from "node:buffer";'];
  if (crypto.length > 0) lines.push(`import { ${crypto.join(', ')} } from "node:crypto";`);
  if (plan.request.parameters.length > 0) lines.push('import { basename } from "node:path";');
  lines.push('import process from "node:process";');
  if (plan.request.confirm) lines.push('import { createInterface } from "node:readline/promises";');
  return lines;
}

export function generateNode(plan: Plan): string {
  const functions = programFunctions(
    plan,
    { helpers: HELPERS, arguments: ARGUMENTS, keys: KEYS, confirm: CONFIRM, send: SEND },
    NODE,
  );
  const parts = [
    ['#!/usr/bin/env node', ...commentBlock(aboutLines(plan, 'node'), '//')].join('\n'),
    imports(plan).join('\n'),
    constants(plan).join('\n'),
    ...functions,
    [...build(plan), MAIN].join('\n'),
  ];
  return parts.join('\n\n') + '\n';
}
