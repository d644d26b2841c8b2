/**
 * Text from the model inside a program. A request file is shared, so its strings are hostile:
 * in string literals every character outside printable ASCII is escaped (each language's escaper
 * decides how), and in comments line breaks, control and bidirectional characters are shown as
 * `\uXXXX` so nothing can end the comment or reorder what a reader sees.
 */
import { DEMO_ACCOUNTS, demoKeyFor, SANDBOX_PROFILE } from '../env/demo';
import { profileEnvPrefix } from '../env/keys';
import { CODE_LANGUAGES, type CodeLanguage, type CodeRequest } from './program-model';
import {
  BASE_URL_ENV,
  DEADLINE_SECONDS,
  MAX_RESPONSE_BYTES,
  NOT_CONFIRMED_EXIT,
  TIMESTAMP_ENV,
  type Plan,
} from './plan';

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** The text as UTF-8 can carry it: a lone surrogate becomes U+FFFD, as Buffer.from(text) makes it when TradeReq sends. */
function wellFormed(text: string): string {
  return text.replace(LONE_SURROGATE, '\uFFFD');
}

/** Printable ASCII that needs no escape in any of the target languages' literals (apart from its quotes). */
export function isPlainAscii(code: number): boolean {
  return code >= 0x20 && code <= 0x7e;
}

/** Code points of `text` (after wellFormed), for escapers that work on whole characters. */
export function codePoints(text: string): number[] {
  return Array.from(wellFormed(text), (c) => c.codePointAt(0)!);
}

export function hex(code: number, digits: number): string {
  return code.toString(16).toUpperCase().padStart(digits, '0');
}

/** How a language's double-quoted string literal writes a character that is not printable ASCII, besides \n \r \t. */
export interface StringEscapes {
  /** The last code point written as \xHH; above it, \uHHHH. */
  readonly lastHexByte: number;
  /** A code point above U+FFFF. */
  readonly astral: (code: number) => string;
}

/** A double-quoted string literal holding exactly `text`, in printable ASCII (Python, JavaScript, Go). */
export function quoted(text: string, escapes: StringEscapes): string {
  let out = '"';
  for (const c of codePoints(text)) {
    if (c === 0x5c) out += '\\\\';
    else if (c === 0x22) out += '\\"';
    else if (isPlainAscii(c)) out += String.fromCharCode(c);
    else if (c === 0x0a) out += '\\n';
    else if (c === 0x0d) out += '\\r';
    else if (c === 0x09) out += '\\t';
    else if (c <= escapes.lastHexByte) out += '\\x' + hex(c, 2);
    else if (c <= 0xffff) out += '\\u' + hex(c, 4);
    else out += escapes.astral(c);
  }
  return out + '"';
}

/** Comments every program has, as lines without the comment marker. */
export const NOTES = {
  signing: 'totalParams: the query string followed by the body, no separator (spec §5 rule 4).',
  addedTimestamp: 'The timestamp goes last in the form body when it has parameters, else in the query string.',
  jsonBody: 'The JSON body is sent byte for byte as written.',
} as const;

/** C0, DEL, C1, zero-width and bidirectional controls, line and paragraph separators, BOM. */
function hiddenInComment(code: number): boolean {
  return (
    code < 0x20 ||
    (code >= 0x7f && code <= 0x9f) ||
    (code >= 0x200b && code <= 0x200f) ||
    (code >= 0x2028 && code <= 0x202e) ||
    (code >= 0x2060 && code <= 0x206f) ||
    code === 0xfeff
  );
}

const COMMENT_MAX = 160;

function visible(points: readonly number[]): string {
  let out = '';
  for (const c of points) out += hiddenInComment(c) ? '\\u' + hex(c, 4) : String.fromCodePoint(c);
  return out;
}

/** One line of comment text: nothing in it can end the comment or hide what follows. */
export function commentText(text: string): string {
  const points = codePoints(text);
  const out = visible(points.slice(0, COMMENT_MAX));
  return points.length > COMMENT_MAX ? out + '…' : out;
}

/** `text` whole on one line, as commentText shows it: for what a program prints (an order before it asks). */
export function shownText(text: string): string {
  return visible(codePoints(text));
}

/** What a program that asks prints after the order, as `tradereq send` says it (src/cli/prepare.ts, notConfirmedMessage). */
export function notConfirmedNotes(reason: string): { readonly noTerminal: string; readonly answeredNo: string } {
  return {
    noTerminal: ` needs confirmation (${shownText(reason)}) and there is no terminal to ask: pass --yes to send it.`,
    answeredNo: ' was not sent: you answered no. To send it, run again and answer y, or pass --yes.',
  };
}

const RUN: Record<CodeLanguage, readonly [command: string, needs: string]> = {
  python: ['python3 FILE.py', 'Python 3.7 or later'],
  'python-requests': [
    'python3 FILE.py',
    'Python 3.7 or later with requests (pip install requests, or apt-get install python3-requests)',
  ],
  node: ['node FILE.mjs', 'Node 18 or later'],
  go: ['go build -o NAME FILE.go && ./NAME', 'Go 1.17 or later; go run FILE.go turns every exit code into 1'],
  shell: ['bash FILE.sh', 'bash, curl, openssl and od'],
};

/**
 * What the key variables of a program for the sandbox take, or undefined: a signed request with the
 * `sandbox` profile's variables to a loopback base URL is one TradeReq signs with the sandbox's demo
 * key (src/core/env/demo.ts). Named, never written out: the program and what is said of it hold no key.
 */
export function sandboxKeyNote(r: CodeRequest): string | undefined {
  if (!r.signed || r.keyEnv.apiKey !== `${profileEnvPrefix(SANDBOX_PROFILE)}API_KEY`) return undefined;
  const demo = demoKeyFor(SANDBOX_PROFILE, r.baseUrl);
  const account = DEMO_ACCOUNTS.find((a) => a.apiKey === demo?.apiKey);
  return account && `for the sandbox: its public demo key "${account.name}", which tradereq sandbox prints`;
}

/** The comment block at the top of every program, as lines without the comment marker. */
export function aboutLines(plan: Plan, language: CodeLanguage): string[] {
  const r = plan.request;
  const label = CODE_LANGUAGES.find((l) => l.id === language)?.label ?? language;
  const lines = [
    commentText(r.title || `${r.method} ${r.path}`),
    '',
    `${r.method} ${r.path}, generated by TradeReq ("Copy as code"): ${label}.`,
    `Run: ${RUN[language][0]}${r.confirm ? ' [--yes]' : ''}${r.parameters.map((p) => ' ' + p.name).join('')}   (needs ${RUN[language][1]})`,
  ];
  if (r.confirm) {
    lines.push(
      `Asks before sending, as tradereq send asks: ${commentText(r.confirm.reason)}.`,
      'In a terminal it shows the order and asks y/N; without one it sends only with --yes.',
    );
  }
  if (r.parameters.length > 0) {
    lines.push('Arguments, in this order (each may instead come from the environment variable of its name):');
    for (const p of r.parameters) lines.push(`  ${p.name}: ${commentText(p.description)}`);
  }
  if (r.signed) {
    lines.push(
      'Keys come from the environment; this file holds no secret:',
      `  ${r.keyEnv.apiKey}: the API key, sent in the ${r.apiKeyHeader} header`,
      `  ${r.keyEnv.secretKey}: the secret key, used only to sign (HMAC-SHA256 of query string + body)`,
    );
    const demo = sandboxKeyNote(r);
    if (demo) lines.push(`  ${demo.charAt(0).toUpperCase()}${demo.slice(1)} (docs/sandbox.md).`);
  } else {
    lines.push('Not signed: no key is needed.');
  }
  lines.push(
    `${BASE_URL_ENV} overrides the base URL, ${commentText(plan.baseUrl)}.`,
    `${TIMESTAMP_ENV} is for tests only: a fixed timestamp in milliseconds instead of now.`,
    `Prints the HTTP status on the first line, then the body (at most ${MAX_RESPONSE_BYTES} bytes).`,
    'Exit code: 0 for 2xx; 1 for 4xx and any other answer (rejected); 2 for bad input (a missing key',
    'or argument); 3 for 5xx or no answer: the outcome is unknown (an order may have been placed),',
    `so check before sending again. It never retries, and gives up after about ${DEADLINE_SECONDS} s without an answer.`,
  );
  if (r.confirm)
    lines.push(
      `Exit code ${NOT_CONFIRMED_EXIT}: not confirmed (the answer was not y, or no --yes without a terminal); nothing was sent.`,
    );
  return lines;
}

/** `lines` as line comments with `marker` ("#" or "//"). */
export function commentBlock(lines: readonly string[], marker: string): string[] {
  return lines.map((l) => (l.length > 0 ? `${marker} ${l}` : marker));
}
