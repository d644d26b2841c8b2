/**
 * Each cause's name, its fix in words, and the fix as a few lines in the languages of Copy as Code
 * (codegen/program-model.ts CODE_LANGUAGES). One home for every word the doctor says about a cause.
 */
import type { CodeLanguage } from '../codegen/program-model';
import type { CauseId, SentRequest } from './types';
import { headerValue } from './wire';

export interface CauseText {
  /** A few words: the heading of the report. */
  readonly title: string;
  readonly fix: string;
  readonly snippets?: Partial<Record<CodeLanguage, string>>;
}

const PY_SIGN = 'signature = hmac.new(secret.encode(), total_params.encode(), hashlib.sha256).hexdigest()';
const NODE_SIGN = "const signature = crypto.createHmac('sha256', secret).update(totalParams).digest('hex');";
const GO_SIGN =
  'mac := hmac.New(sha256.New, []byte(secret)); mac.Write([]byte(totalParams)); signature := hex.EncodeToString(mac.Sum(nil))';
const SH_SIGN = `signature=$(printf '%s' "$query$body" | openssl dgst -sha256 -hmac "$SECRET" | sed 's/^.*= //')`;

/** One snippet for all languages that write it the same way in spirit, by language. */
function snippets(python: string, node: string, go: string, shell: string, requests = python): CauseText['snippets'] {
  return { python, 'python-requests': requests, node, go, shell };
}

const WIRE_STRINGS =
  'Build the query string and the body as strings first, sign exactly those strings, and send exactly those strings (do not let the HTTP library encode or serialise them again).';

export const CAUSES: Readonly<Record<CauseId, CauseText>> = {
  'secret-sent': {
    title: 'the secret key was sent with the request',
    fix: 'A secret key only signs: send the API key in the X-SERVICE-APIKEY header and the signature as a parameter, never the secret itself. This one has left your machine (logs and proxies on the way may keep it): replace the key pair, then fix where the program reads its keys.',
  },
  'signature-missing': {
    title: 'no signature was sent',
    fix: 'A signed endpoint needs the signature parameter in the query string or the body (§5 rule 2).',
    snippets: snippets(
      `${PY_SIGN}\nquery += "&signature=" + signature`,
      `${NODE_SIGN}\nquery += '&signature=' + signature;`,
      `${GO_SIGN}\nquery += "&signature=" + signature`,
      `${SH_SIGN}\ncurl "$URL?$query&signature=$signature"`,
    ),
  },
  'signature-uppercase': {
    title: 'the signature is in upper case',
    fix: 'Send the signature as 64 lower-case hexadecimal characters (§5 rule 5): hexdigest(), digest("hex") and hex.EncodeToString already give lower case; do not upper-case it.',
    snippets: snippets(
      `${PY_SIGN}  # lower case; no .upper()`,
      `${NODE_SIGN} // lower case; no .toUpperCase()`,
      `${GO_SIGN} // lower case; not strings.ToUpper`,
      `${SH_SIGN}  # no tr a-f A-F`,
    ),
  },
  'ampersand-join': {
    title: 'an "&" was put between the query string and the body',
    fix: 'totalParams is the query string followed directly by the body, with no "&" between them (§5 rule 4, rule 11).',
    snippets: snippets(
      'total_params = query + body  # no "&" between them',
      'const totalParams = query + body; // no "&" between them',
      'totalParams := query + body // no "&" between them',
      'total_params="$query$body"  # no "&" between them',
    ),
  },
  'body-reserialised': {
    title: 'the body was serialised again after signing',
    fix: `The JSON that is signed must be the very text that is sent. ${WIRE_STRINGS}`,
    snippets: snippets(
      'body = json.dumps(params, separators=(",", ":"))\nsignature = hmac.new(secret.encode(), (query + body).encode(), hashlib.sha256).hexdigest()\nurllib.request.Request(url, data=body.encode(), headers={"Content-Type": "application/json"})',
      "const body = JSON.stringify(params);\nconst signature = crypto.createHmac('sha256', secret).update(query + body).digest('hex');\nawait fetch(url, { method: 'POST', body, headers: { 'Content-Type': 'application/json' } }); // send body, not params",
      'body, _ := json.Marshal(params)\n// sign query + string(body), then send bytes.NewReader(body): the same bytes',
      'body=\'{"symbol":"BTCUSDT"}\'  # sign "$query$body" and send --data-raw "$body"',
      'body = json.dumps(params, separators=(",", ":"))\nsignature = hmac.new(secret.encode(), (query + body).encode(), hashlib.sha256).hexdigest()\nrequests.post(url, data=body, headers={"Content-Type": "application/json"})  # data=body, not json=params',
    ),
  },
  'order-differs': {
    title: 'the parameters were signed in another order than they were sent',
    fix: `The service signs the parameters in the order they arrive. Sign the string you send, in the same order (the order itself is free, §4.1 rule 4). ${WIRE_STRINGS}`,
    snippets: snippets(
      'query = urllib.parse.urlencode(params)  # one string, used for signing and sending',
      'const query = new URLSearchParams(params).toString(); // sign and send this one string',
      'query := "symbol=" + url.QueryEscape(symbol) + "&timestamp=" + ts // url.Values.Encode() sorts: sign what it returns, or build by hand',
      'query="symbol=BTCUSDT&side=BUY&timestamp=$ts"  # sign and send this one string',
      'query = urllib.parse.urlencode(params)\nrequests.post(url + "?" + query + "&signature=" + signature)  # not params=dict: that may reorder',
    ),
  },
  'encoding-lowercase': {
    title: 'percent-escapes in lower case',
    fix: 'Percent-encode special characters with upper-case hex (%2C, not %2c), and sign exactly what is sent (§5 rule 6).',
    snippets: snippets(
      'urllib.parse.quote(value, safe="")  # upper-case hex',
      'encodeURIComponent(value) // upper-case hex',
      'url.QueryEscape(value) // upper-case hex',
      '# write escapes as %2C, never %2c',
    ),
  },
  'encoding-missing': {
    title: 'special characters signed and sent differently encoded',
    fix: "Percent-encode every character outside A-Z a-z 0-9 - _ . ~ with upper-case hex, then sign and send the same encoded string (§5 rule 6). encodeURIComponent leaves ! ' ( ) * unencoded.",
    snippets: snippets(
      'urllib.parse.quote(value, safe="")',
      "const enc = (v) => encodeURIComponent(v).replace(/[!'()*]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase());",
      'strings.ReplaceAll(url.QueryEscape(value), "+", "%20")',
      'value=$(printf \'%s\' "$raw" | jq -sRr @uri)',
    ),
  },
  'message-newline': {
    title: 'a newline was signed after the message',
    fix: "Sign totalParams without a line end: echo adds one; use printf '%s' or echo -n.",
    snippets: snippets(PY_SIGN + '  # total_params without "\\n"', NODE_SIGN, GO_SIGN, SH_SIGN),
  },
  'signature-included': {
    title: 'the signature parameter was signed too',
    fix: 'Sign the parameters without the signature, then append signature=... (§5 rule 4: totalParams leaves the signature out).',
    snippets: snippets(
      `${PY_SIGN}\nquery = total_params + "&signature=" + signature`,
      `${NODE_SIGN}\nconst query = totalParams + '&signature=' + signature;`,
      `${GO_SIGN}\nquery := totalParams + "&signature=" + signature`,
      `${SH_SIGN}\ncurl "$URL?$query&signature=$signature"`,
    ),
  },
  'json-vs-form': {
    title: 'signed as JSON but sent as a form, or the reverse',
    fix: 'Sign the body in the form it is sent: a form body as a=1&b=2, a JSON body as its JSON text with Content-Type: application/json (§4.1 rule 3).',
    snippets: snippets(
      'body = json.dumps(params, separators=(",", ":"))  # sent as data=body with Content-Type: application/json',
      'const body = JSON.stringify(params); // sent as this text, Content-Type: application/json',
      'body, _ := json.Marshal(params) // sent as these bytes, Content-Type: application/json',
      'curl -H \'Content-Type: application/json\' --data-raw "$body"  # the body that was signed',
      'requests.post(url, data=body, headers={"Content-Type": "application/json"})  # the signed text, not data=params',
    ),
  },
  'secret-whitespace': {
    title: 'the secret key had whitespace or a line end',
    fix: 'Trim the secret key where it is read (a file or an environment variable often ends with a newline).',
    snippets: snippets(
      'secret = os.environ["SECRET_KEY"].strip()',
      'const secret = process.env.SECRET_KEY.trim();',
      'secret := strings.TrimSpace(os.Getenv("SECRET_KEY"))',
      "SECRET=$(tr -d ' \\r\\n' < secret.txt)",
    ),
  },
  'wrong-secret': {
    title: 'signed with another key',
    fix: 'Sign with the secret key that belongs to the API key sent in the header, of the same environment.',
    snippets: snippets(
      'secret = os.environ["LIVE_SECRET_KEY"]  # the pair of the API key you send',
      'const secret = process.env.LIVE_SECRET_KEY; // the pair of the API key you send',
      'secret := os.Getenv("LIVE_SECRET_KEY") // the pair of the API key you send',
      'SECRET=$LIVE_SECRET_KEY  # the pair of the API key you send',
    ),
  },
  'timestamp-seconds': {
    title: 'the timestamp is in seconds',
    fix: 'Send timestamp in milliseconds since 1970 (§5 rule 7).',
    snippets: snippets(
      'timestamp = int(time.time() * 1000)',
      'const timestamp = Date.now();',
      'timestamp := time.Now().UnixMilli()',
      'timestamp=$(date +%s%3N)',
    ),
  },
  'clock-window': {
    title: 'the timestamp is outside the window of the server time',
    fix: "Sign just before sending, with a clock in step with the server: measure the offset with GET /api/v3/time and add it, or sync the machine's clock (§5 rule 9). Never resend a request signed earlier.",
    snippets: snippets(
      'offset = server_time - int(time.time() * 1000)  # from GET /api/v3/time\ntimestamp = int(time.time() * 1000) + offset',
      'const timestamp = Date.now() + offset; // offset from GET /api/v3/time',
      'timestamp := time.Now().UnixMilli() + offset // offset from GET /api/v3/time',
      'timestamp=$(( $(date +%s%3N) + offset ))',
    ),
  },
  'recv-window': {
    title: 'recvWindow is out of bounds',
    fix: 'Send recvWindow as whole milliseconds, at most 60000; 5000 or less is recommended (§5 rule 8).',
  },
  'api-key-header': {
    title: 'the API key header is missing, malformed or of another key',
    fix: 'Send the header X-SERVICE-APIKEY with the access key that belongs to the secret you sign with (§5 rule 1).',
  },
  'query-overrides-body': {
    title: 'the service reads other parameters than those meant',
    fix: "Put each parameter once: when a name is in both the query string and the body, the service uses the query string's value (§4.1 rule 5); a GET takes only the query string.",
  },
  none: { title: 'the signature is correct', fix: '' },
  unknown: {
    title: 'no known mistake reproduces the signature',
    fix: 'Check that the program signs exactly the strings it sends, with the secret key of the API key it sends. Print both in the program and compare them with "expected" above.',
  },
};

/** What sent the request, as far as the text tells: a program's language, or a .tradereq file that TradeReq sent. */
export type Program = 'python' | 'node' | 'go' | 'shell' | 'program' | 'file';

/** The program that sent `sent`: its form (a cURL command, http.client's lines), else its User-Agent. */
export function programOf(sent: SentRequest, sentByTradeReq: boolean): Program {
  if (sentByTradeReq || sent.form === 'tradereq') return 'file';
  if (sent.form === 'curl') return 'shell';
  if (sent.form === 'python') return 'python';
  const agent = (headerValue(sent, 'user-agent') ?? '').toLowerCase();
  if (/python|aiohttp|httpx/.test(agent)) return 'python';
  if (agent.startsWith('curl/')) return 'shell';
  if (agent.startsWith('go-http-client')) return 'go';
  if (/axios|node|undici|got\b/.test(agent)) return 'node';
  return 'program';
}

const RULE_7 = 'milliseconds since 1970 (§5 rule 7)';
const RESEND = 'A request signed earlier cannot be sent again: sign it anew.';

/** Where the program should take its timestamp from, in its language: just before sending, with the server's offset. */
function stale(who: string, now: string): string {
  return `${who} must take timestamp just before it sends each request, from a clock in step with the server's: ${now} plus the offset measured with GET /api/v3/time, or sync the machine's clock (§5 rule 9). ${RESEND}`;
}

/** The fix of a timestamp in seconds or out of the window, in the words of what sent it (issue 34, point 7). */
const TIMESTAMP_FIXES: Readonly<Record<'timestamp-seconds' | 'clock-window', Readonly<Record<Program, string>>>> = {
  'timestamp-seconds': {
    python: `Your Python program computes timestamp in seconds (int(time.time())): multiply by 1000, timestamp = int(time.time() * 1000), ${RULE_7}.`,
    node: `Your program computes timestamp in seconds (Math.floor(Date.now() / 1000)): send Date.now() itself, ${RULE_7}.`,
    go: `Your program computes timestamp in seconds (time.Now().Unix()): use time.Now().UnixMilli(), ${RULE_7}.`,
    shell: `Your script writes timestamp in seconds ($(date +%s)): write $(date +%s%3N), ${RULE_7}; macOS's date has no %N: python3 -c 'import time; print(int(time.time() * 1000))'.`,
    program: `Your program computes timestamp in seconds: multiply it by 1000, ${RULE_7}.`,
    file: `The request file writes timestamp in seconds: delete the timestamp line (TradeReq then adds the current time in milliseconds) or write {{$timestamp}} (§5 rule 7).`,
  },
  'clock-window': {
    python: stale('Your Python program', 'int(time.time() * 1000)'),
    node: stale('Your program', 'Date.now()'),
    go: stale('Your program', 'time.Now().UnixMilli()'),
    shell: stale('Your script', '$(date +%s%3N) right before curl runs'),
    program: stale('Your program', 'the time in milliseconds'),
    file: 'If the request file writes its own timestamp, delete that line (TradeReq then adds the current time, corrected by the server clock offset it measures) or write {{$timestamp}}; otherwise leave clock sync on and set the system clock (§5 rule 9).',
  },
};

/** The fix of `cause` for what sent the request: the timestamp's in its words, the rest as CAUSES says. */
export function fixFor(cause: CauseId, program: Program): string {
  return cause === 'timestamp-seconds' || cause === 'clock-window'
    ? TIMESTAMP_FIXES[cause][program]
    : CAUSES[cause].fix;
}
