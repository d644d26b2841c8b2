/** cURL's command-line options, read as cURL reads them: which take an argument, and what each does. */
import { ConvertError } from './import-result';

/** One piece of request data, as cURL gets it from -d, --data-urlencode, --json or -F. */
type DataPart =
  | { readonly kind: 'encoded'; readonly text: string }
  | { readonly kind: 'pair'; readonly name: string; readonly value: string }
  | { readonly kind: 'json'; readonly text: string };

export interface CurlCommand {
  method?: string;
  get: boolean;
  head: boolean;
  readonly urls: string[];
  readonly headers: { readonly name: string; readonly value: string }[];
  readonly data: DataPart[];
  /** -F fields: multipart in cURL, a form body in TradeReq. */
  form: boolean;
  /** Options that have no counterpart in a `.tradereq` file, as written. */
  readonly ignored: string[];
  /** Sentences about what was not carried over (credentials, files). */
  readonly dropped: string[];
  /** cURL sends data or headers the command does not spell out as a name and a value (a file, a nameless --data-urlencode). */
  incomplete: boolean;
}

type Apply = (cmd: CurlCommand, value: string, option: string) => void;

function header(cmd: CurlCommand, value: string): void {
  if (value.startsWith('@')) {
    cmd.incomplete = true;
    cmd.dropped.push(`headers read from the file ${value.slice(1)} (-H @file) are not carried over`);
    return;
  }
  const colon = value.indexOf(':');
  const semi = value.indexOf(';');
  if (colon < 0 && semi > 0 && value.trim().endsWith(';')) {
    cmd.headers.push({ name: value.trim().slice(0, -1).trim(), value: '' });
  } else if (colon <= 0 || value.slice(colon + 1).trim() === '') {
    cmd.dropped.push(
      `the header option ${JSON.stringify(value)} names no value, so cURL leaves it out; so does TradeReq`,
    );
  } else {
    cmd.headers.push({ name: value.slice(0, colon).trim(), value: value.slice(colon + 1).trim() });
  }
}

function data(cmd: CurlCommand, value: string, option: string): void {
  if (value.startsWith('@') && option !== '--data-raw') {
    cmd.incomplete = true;
    cmd.dropped.push(
      `the body read from the file ${value.slice(1)} (${option} @file) is not carried over: write its parameters in the request`,
    );
    return;
  }
  cmd.data.push({ kind: 'encoded', text: value });
}

function urlencoded(cmd: CurlCommand, value: string): void {
  const eq = value.indexOf('=');
  const at = value.indexOf('@');
  cmd.incomplete ||= eq <= 0 || (at >= 0 && at < eq);
  if (at >= 0 && (eq < 0 || at < eq)) {
    cmd.dropped.push(`--data-urlencode ${value}: content read from a file is not carried over`);
  } else if (eq <= 0) {
    cmd.dropped.push(
      `--data-urlencode ${JSON.stringify(value)} sends a value without a name, which a parameter line cannot hold`,
    );
  } else {
    cmd.data.push({ kind: 'pair', name: value.slice(0, eq), value: value.slice(eq + 1) });
  }
}

function form(cmd: CurlCommand, value: string, option: string): void {
  const eq = value.indexOf('=');
  const content = eq < 0 ? '' : value.slice(eq + 1);
  const file = option !== '--form-string' && (content.startsWith('@') || content.startsWith('<'));
  if (eq <= 0 || file) {
    cmd.incomplete = true;
    cmd.dropped.push(`-F ${JSON.stringify(value)}: a file or a nameless form field is not carried over`);
    return;
  }
  cmd.form = true;
  cmd.data.push({ kind: 'pair', name: value.slice(0, eq), value: content });
}

const WITH_ARGUMENT: Record<string, Apply> = {
  '--request': (cmd, v) => (cmd.method = v),
  '--header': header,
  '--data': data,
  '--data-ascii': data,
  '--data-binary': data,
  '--data-raw': data,
  '--data-urlencode': urlencoded,
  '--json': (cmd, v) => cmd.data.push({ kind: 'json', text: v }),
  '--url': (cmd, v) => cmd.urls.push(v),
  '--form': form,
  '--form-string': form,
  '--user': (cmd) =>
    cmd.dropped.push('the credentials of -u/--user are not copied (TradeReq signs with a key profile)'),
  '--oauth2-bearer': (cmd) => cmd.dropped.push('the bearer token of --oauth2-bearer is not copied'),
  '--cookie': (cmd) => cmd.dropped.push('cookies (-b/--cookie) are not copied'),
  '--user-agent': (cmd, v) => cmd.headers.push({ name: 'User-Agent', value: v }),
  '--referer': (cmd, v) => cmd.headers.push({ name: 'Referer', value: v }),
};

/** Options that take an argument and mean nothing to a request file (output, transport, TLS files). */
const IGNORED_WITH_ARGUMENT = new Set(
  (
    '--output --write-out --max-time --connect-timeout --proxy --proxy-user --cookie-jar --upload-file --cacert --capath ' +
    '--cert --cert-type --key --key-type --pass --ciphers --retry --retry-delay --retry-max-time --resolve --connect-to ' +
    '--range --limit-rate --config --aws-sigv4 --interface --max-redirs --speed-limit --speed-time --time-cond --trace ' +
    '--trace-ascii --stderr --dns-servers --unix-socket --local-port --max-filesize --expect100-timeout --happy-eyeballs-timeout-ms'
  ).split(' '),
);

const SHORT: Record<string, string> = {
  X: '--request',
  H: '--header',
  d: '--data',
  F: '--form',
  u: '--user',
  b: '--cookie',
  A: '--user-agent',
  e: '--referer',
  o: '--output',
  w: '--write-out',
  m: '--max-time',
  x: '--proxy',
  U: '--proxy-user',
  c: '--cookie-jar',
  T: '--upload-file',
  E: '--cert',
  r: '--range',
  K: '--config',
  Y: '--speed-limit',
  y: '--speed-time',
  z: '--time-cond',
  G: '--get',
  I: '--head',
};

function takesArgument(option: string): boolean {
  return option in WITH_ARGUMENT || IGNORED_WITH_ARGUMENT.has(option);
}

function applyOption(cmd: CurlCommand, option: string, value: string | undefined, written: string): void {
  if (value === undefined && takesArgument(option))
    throw new ConvertError(`the cURL option ${written} needs a value after it`);
  const apply = WITH_ARGUMENT[option];
  if (apply) apply(cmd, value!, option);
  else if (option === '--get') cmd.get = true;
  else if (option === '--head') cmd.head = true;
  else cmd.ignored.push(written);
}

/** `-sSXPOST` → `-s`, `-S`, `-X POST`; returns how many words it used. */
function shortOptions(cmd: CurlCommand, word: string, next: string | undefined): number {
  for (let k = 1; k < word.length; k++) {
    const letter = word[k]!;
    const option = SHORT[letter] ?? `-${letter}`;
    if (takesArgument(option)) {
      const attached = word.slice(k + 1);
      applyOption(cmd, option, attached.length > 0 ? attached : next, `-${letter}`);
      return attached.length > 0 ? 1 : 2;
    }
    applyOption(cmd, option, undefined, `-${letter}`);
  }
  return 1;
}

/** The words after `curl`, as cURL would read them. */
export function readCurlArguments(words: readonly string[]): CurlCommand {
  const cmd: CurlCommand = {
    get: false,
    head: false,
    form: false,
    urls: [],
    headers: [],
    data: [],
    ignored: [],
    dropped: [],
    incomplete: false,
  };
  let onlyUrls = false;
  for (let i = 0; i < words.length;) {
    const w = words[i]!;
    if (onlyUrls || !w.startsWith('-') || w === '-') {
      cmd.urls.push(w);
      i++;
    } else if (w === '--') {
      onlyUrls = true;
      i++;
    } else if (w.startsWith('--')) {
      const withArgument = takesArgument(w);
      applyOption(cmd, w, withArgument ? words[i + 1] : undefined, w);
      i += withArgument ? 2 : 1;
    } else {
      i += shortOptions(cmd, w, words[i + 1]);
    }
  }
  return cmd;
}
