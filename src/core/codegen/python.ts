/**
 * Python 3 programs: standard library only (urllib), or with `requests`. Both build the query and
 * body themselves (strict percent-encoding, not urllib.parse's helpers) and sign at run time.
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
  DEADLINE_SECONDS,
  CONNECT_TIMEOUT_SECONDS,
  MAX_RESPONSE_BYTES,
  NOT_CONFIRMED_EXIT,
  UNKNOWN_OUTCOME,
  TIMESTAMP_ENV,
  BASE_URL_ENV,
  type Plan,
} from './plan';
import { aboutLines, commentBlock, commentText, hex, notConfirmedNotes, NOTES, quoted } from './text';

/** A Python string literal holding exactly `text`, in printable ASCII. */
function pyString(text: string): string {
  return quoted(text, { lastHexByte: 0xff, astral: (c) => '\\U' + hex(c, 8) });
}

/** Appends the list's declaration to `lines`, one line a pair (pushed, not spread: a list may be long). */
function pyPairs(lines: string[], name: string, list: readonly NamedValue[]): void {
  if (list.length === 0) {
    lines.push(`    ${name} = []`);
    return;
  }
  lines.push(`    ${name} = [`);
  for (const p of list) lines.push(`        (${pyString(p.name)}, ${renderValue(p.value, PYTHON)}),`);
  lines.push('    ]');
}

function constants(plan: Plan): string[] {
  const r = plan.request;
  const lines = [
    `BASE_URL = ${pyString(plan.baseUrl)}`,
    `METHOD = ${pyString(r.method)}`,
    `PATH = ${pyString(r.path)}`,
  ];
  if (r.signed) {
    lines.push(`API_KEY_ENV = ${pyString(r.keyEnv.apiKey)}`, `SECRET_KEY_ENV = ${pyString(r.keyEnv.secretKey)}`);
  }
  if (r.parameters.length > 0) {
    lines.push('PARAMETERS = [');
    for (const p of r.parameters) lines.push(`    (${pyString(p.name)}, ${pyString(commentText(p.description))}),`);
    lines.push(']');
  }
  if (r.confirm) {
    const notes = notConfirmedNotes(r.confirm.reason);
    lines.push(`NO_TERMINAL_NOTE = ${pyString(notes.noTerminal)}`, `ANSWERED_NO_NOTE = ${pyString(notes.answeredNo)}`);
  }
  lines.push(
    `MAX_RESPONSE_BYTES = ${MAX_RESPONSE_BYTES}`,
    `UNKNOWN_NOTE = ${pyString(UNKNOWN_OUTCOME)}`,
    'UNRESERVED = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.~")',
  );
  return lines;
}

const HELPERS = String.raw`def fail(message, exit_code=2):
    sys.stderr.write("error: " + message + "\n")
    sys.exit(exit_code)


def encode(text):
    """Strict percent-encoding: every UTF-8 byte outside A-Z a-z 0-9 - _ . ~ as %XX, upper-case hex."""
    data = text.encode("utf-8", "surrogateescape")
    return "".join(chr(b) if b in UNRESERVED else "%%%02X" % b for b in data)


def encode_params(params):
    return "&".join(encode(name) + "=" + encode(value) for name, value in params)


def with_pair(text, pair):
    return text + "&" + pair if text else pair


def base_url():
    url = os.environ.get("${BASE_URL_ENV}", "") or BASE_URL
    if not re.match(r"https?://[^\s]+$", url):
        fail("${BASE_URL_ENV} must be an http:// or https:// URL")
    return url.rstrip("/")


def shown(data):
    """The answer as text; control characters other than line feed and tab shown as "?"."""
    text = data[:MAX_RESPONSE_BYTES].decode("utf-8", "replace")
    return re.sub(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]", "?", text)`;

const ARGUMENTS = String.raw`def usage():
    lines = ["usage: " + os.path.basename(sys.argv[0]) + " " + " ".join(name for name, _ in PARAMETERS)]
    lines += ["  " + name + ": " + description for name, description in PARAMETERS]
    sys.stderr.write("\n".join(lines) + "\n")
    sys.exit(2)


def arguments():
    """The program's parameters, in order, from the command line or else the environment."""
    given = sys.argv[1:]
    if len(given) > len(PARAMETERS):
        usage()
    values = {}
    for i, (name, _) in enumerate(PARAMETERS):
        value = given[i] if i < len(given) else os.environ.get(name, "")
        if value == "":
            usage()
        values[name] = value
    return values`;

const KEYS = String.raw`def keys():
    """The keys from the environment; they are never printed."""
    api_key = os.environ.get(API_KEY_ENV, "")
    secret_key = os.fsencode(os.environ.get(SECRET_KEY_ENV, ""))
    if api_key == "" or secret_key == b"":
        fail("set the environment variables " + API_KEY_ENV + " (the API key) and " + SECRET_KEY_ENV
             + " (the secret key): this program holds no key")
    if not re.fullmatch(r"[\x21-\x7e]+", api_key):
        fail("the API key in " + API_KEY_ENV + " is not one word of printable ASCII: check how it was set")
    return api_key, secret_key`;

const TIMESTAMP = String.raw`def now_ms():
    """Now in milliseconds; ${TIMESTAMP_ENV} fixes it, for tests only."""
    fixed = os.environ.get("${TIMESTAMP_ENV}", "")
    if fixed != "":
        if not re.fullmatch(r"[0-9]{1,16}", fixed):
            fail("${TIMESTAMP_ENV} must be a whole number of milliseconds")
        return fixed
    return str(time.time_ns() // 1000000)`;

const CLIENT_ORDER_ID = String.raw`def new_client_order_id():
    """32 random characters of A-Z a-z 0-9, as TradeReq's {{$clientOrderId}}."""
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
    return "".join(secrets.choice(alphabet) for _ in range(32))`;

/** Values in Python (see renderings.ts): names of the variables main() makes, the imports they need. */
const PYTHON: ValueRenderings = {
  empty: '""',
  join: ' + ',
  apiKey: 'api_key',
  text: (p) => pyString(p.text),
  parameter: (p) => `args[${pyString(p.parameter)}]`,
  timestamp: { variable: 'timestamp', make: '    timestamp = now_ms()', helper: TIMESTAMP, imports: ['time'] },
  clientOrderId: {
    variable: 'client_order_id',
    make: '    client_order_id = new_client_order_id()',
    helper: CLIENT_ORDER_ID,
    imports: ['secrets'],
  },
  uuid: { variable: 'request_uuid', make: '    request_uuid = str(uuid.uuid4())', imports: ['uuid'] },
};

const CONFIRM = String.raw`def one_line(text):
    """Text shown on one line: control, invisible and bidirectional characters as "?"."""
    return re.sub(r"[\x00-\x1f\x7f-\x9f\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff\ud800-\udfff]", "?", text)


def take_yes():
    """--yes, the program's one option, taken out of the arguments: it sends without asking."""
    yes = "--yes" in sys.argv[1:]
    sys.argv[1:] = [a for a in sys.argv[1:] if a != "--yes"]
    return yes


def confirm(order, yes):
    """Asks before sending (see the top of this file); --yes answers for a run without a terminal."""
    if yes:
        return
    order = one_line(order)
    if sys.stdin is None or not sys.stdin.isatty():
        fail(order + NO_TERMINAL_NOTE, ${NOT_CONFIRMED_EXIT})
    where = one_line(base_url())
    sys.stderr.write("Send " + order + " to " + where + "? [y/N] ")
    sys.stderr.flush()
    try:
        answer = sys.stdin.readline(256)
    except KeyboardInterrupt:
        answer = ""
    if not re.fullmatch(r"y(es)?", answer.strip(), re.IGNORECASE):
        fail(order + ANSWERED_NO_NOTE, ${NOT_CONFIRMED_EXIT})`;

function sendStdlib(): string {
  return String.raw`class NoRedirect(urllib.request.HTTPRedirectHandler):
    """A redirect is an answer to print, never followed: it could carry the key to another host."""

    def redirect_request(self, req, fp, code, msg, headers, newurl):
        return None


def send(url, headers, body):
    opener = urllib.request.build_opener(NoRedirect)
    request = urllib.request.Request(url, data=body, headers=headers, method=METHOD)
    try:
        with opener.open(request, timeout=${DEADLINE_SECONDS}) as response:
            return response.status, response.read(MAX_RESPONSE_BYTES)
    except urllib.error.HTTPError as error:
        with error:
            return error.code, error.read(MAX_RESPONSE_BYTES)
    except (OSError, ValueError, http.client.HTTPException) as error:
        fail("no answer from " + url.split("?")[0] + " (" + str(error) + "): " + UNKNOWN_NOTE, 3)`;
}

function sendRequests(): string {
  return String.raw`def send(url, headers, body):
    try:
        with requests.request(METHOD, url, headers=headers, data=body, allow_redirects=False, stream=True,
                              timeout=(${CONNECT_TIMEOUT_SECONDS}, ${DEADLINE_SECONDS})) as response:
            return response.status_code, response.raw.read(MAX_RESPONSE_BYTES, decode_content=True)
    except requests.RequestException as error:
        fail("no answer from " + url.split("?")[0] + " (" + str(error) + "): " + UNKNOWN_NOTE, 3)`;
}

function signing(plan: Plan): string[] {
  const r = plan.request;
  if (!r.signed) return [];
  const target = r.signaturePlacement === 'body' ? 'body' : 'query_string';
  return [
    `    # ${NOTES.signing}`,
    '    total_params = query_string + body',
    '    signature = hmac.new(secret_key, total_params.encode("utf-8", "surrogateescape"), hashlib.sha256).hexdigest()',
    `    ${target} = with_pair(${target}, "signature=" + signature)`,
  ];
}

const BODY: BodyStatements = {
  none: ['    body = ""'],
  form: ['    body = encode_params(form)'],
  json: (value) => [`    # ${NOTES.jsonBody}`, `    body = ${value}`],
};

function build(plan: Plan): string[] {
  const r = plan.request;
  const lines: string[] = [];
  if (r.confirm) lines.push('    yes = take_yes()');
  if (r.parameters.length > 0) lines.push('    args = arguments()');
  if (r.signed) lines.push('    api_key, secret_key = keys()');
  lines.push(...makePieces(plan, PYTHON, 'beforeAsking'));
  if (r.confirm) {
    lines.push(`    confirm(${renderValue(r.confirm.order, PYTHON)}, yes)`);
    lines.push(...makePieces(plan, PYTHON, 'afterAnswer'));
  }
  pyPairs(lines, 'query', r.query);
  if (plan.body === 'form') pyPairs(lines, 'form', r.form);
  if (plan.addTimestamp) {
    lines.push(`    # ${NOTES.addedTimestamp}`);
    lines.push(`    ${plan.addTimestamp}.append(("timestamp", timestamp))`);
  }
  lines.push('    query_string = encode_params(query)');
  lines.push(...bodyStatements(plan, BODY, PYTHON));
  for (const line of signing(plan)) lines.push(line);
  lines.push('    headers = {');
  for (const h of plan.headers) lines.push(`        ${pyString(h.name)}: ${renderValue(h.value, PYTHON, true)},`);
  lines.push('    }');
  return lines;
}

function main(plan: Plan): string[] {
  const body = plan.sendsBody ? 'body.encode("utf-8", "surrogateescape")' : 'None';
  return [
    'def main():',
    ...build(plan),
    '    url = base_url() + PATH + ("?" + query_string if query_string else "")',
    `    status, data = send(url, headers, ${body})`,
    '    sys.stdout.buffer.write((str(status) + "\\n" + shown(data) + "\\n").encode("utf-8"))',
    '    sys.stdout.flush()',
    '    if 200 <= status < 300:',
    '        sys.exit(0)',
    '    if status >= 500:',
    `        sys.stderr.write("status " + str(status) + ": " + UNKNOWN_NOTE + "\\n")`,
    '        sys.exit(3)',
    '    sys.exit(1)',
  ];
}

function imports(plan: Plan, withRequests: boolean): string[] {
  const names = ['os', 're', 'sys'];
  if (plan.request.signed) names.push('hashlib', 'hmac');
  names.push(...pieceImports(plan, PYTHON));
  if (!withRequests) names.push('http.client', 'urllib.error', 'urllib.request');
  const lines = names.sort().map((n) => `import ${n}`);
  if (withRequests) lines.push('', 'import requests');
  return lines;
}

export function generatePython(plan: Plan, withRequests: boolean): string {
  const parts: string[][] = [
    // Python reads a coding declaration on line 1 or 2: this one, so a title there cannot choose another.
    [
      '#!/usr/bin/env python3',
      '# -*- coding: utf-8 -*-',
      ...commentBlock(aboutLines(plan, withRequests ? 'python-requests' : 'python'), '#'),
    ],
    imports(plan, withRequests),
    constants(plan),
  ];
  const send = withRequests ? sendRequests() : sendStdlib();
  const functions = programFunctions(
    plan,
    { helpers: HELPERS, arguments: ARGUMENTS, keys: KEYS, confirm: CONFIRM, send },
    PYTHON,
  );
  functions.push(main(plan).join('\n'));
  return (
    [
      ...parts.map((p) => p.join('\n')),
      ...functions.map((f) => '\n' + f),
      '\nif __name__ == "__main__":\n    main()',
    ].join('\n\n') + '\n'
  );
}
