/**
 * Go with the standard library only (net/http, crypto/hmac). The output is gofmt-clean: no
 * aligned blocks, imports sorted, tabs.
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

/**
 * A Go string literal holding exactly `text`, in printable ASCII: code points as UTF-8, or, with
 * `latin1` (header values, which HTTP carries as Latin-1 as TradeReq sends them), as single bytes.
 */
function goString(text: string, latin1 = false): string {
  return quoted(text, { lastHexByte: latin1 ? 0xff : 0x7f, astral: (c) => '\\U' + hex(c, 8) });
}

/** Appends the list's declaration to `lines`, one line a pair (pushed, not spread: a list may be long). */
function goPairs(lines: string[], name: string, list: readonly NamedValue[]): void {
  if (list.length === 0) {
    lines.push(`\t${name} := []param{}`);
    return;
  }
  lines.push(`\t${name} := []param{`);
  for (const p of list) lines.push(`\t\t{${goString(p.name)}, ${renderValue(p.value, GO)}},`);
  lines.push('\t}');
}

function constants(plan: Plan): string[] {
  const r = plan.request;
  const lines = [
    `const baseURL = ${goString(plan.baseUrl)}`,
    `const method = ${goString(r.method)}`,
    `const path = ${goString(r.path)}`,
  ];
  if (r.signed) {
    lines.push(
      `const apiKeyEnv = ${goString(r.keyEnv.apiKey)}`,
      `const secretKeyEnv = ${goString(r.keyEnv.secretKey)}`,
    );
  }
  lines.push(`const maxResponseBytes = ${MAX_RESPONSE_BYTES}`, `const unknownNote = ${goString(UNKNOWN_OUTCOME)}`);
  if (r.confirm) {
    const notes = notConfirmedNotes(r.confirm.reason);
    lines.push(
      `const noTerminalNote = ${goString(notes.noTerminal)}`,
      `const answeredNoNote = ${goString(notes.answeredNo)}`,
    );
  }
  if (r.parameters.length > 0) {
    lines.push('', 'var parameters = [][2]string{');
    for (const p of r.parameters) lines.push(`\t{${goString(p.name)}, ${goString(commentText(p.description))}},`);
    lines.push('}');
  }
  lines.push('', 'type param struct{ name, value string }');
  return lines;
}

const HELPERS =
  String.raw`func fail(message string, exitCode int) {
	fmt.Fprintln(os.Stderr, "error: "+message)
	os.Exit(exitCode)
}

// encode is strict percent-encoding: every UTF-8 byte outside A-Z a-z 0-9 - _ . ~ as %XX, upper-case hex.
func encode(text string) string {
	var out strings.Builder
	for _, b := range []byte(text) {
		if 'A' <= b && b <= 'Z' || 'a' <= b && b <= 'z' || '0' <= b && b <= '9' || b == '-' || b == '_' || b == '.' || b == '~' {
			out.WriteByte(b)
		} else {
			fmt.Fprintf(&out, "%%%02X", b)
		}
	}
	return out.String()
}

func encodeParams(params []param) string {
	parts := make([]string, len(params))
	for i, p := range params {
		parts[i] = encode(p.name) + "=" + encode(p.value)
	}
	return strings.Join(parts, "&")
}

func withPair(text, pair string) string {
	if text == "" {
		return pair
	}
	return text + "&" + pair
}

func currentBaseURL() string {
	url := os.Getenv("${BASE_URL_ENV}")
	if url == "" {
		url = baseURL
	}
	if !regexp.MustCompile(` +
  '`^https?://\\S+$`' +
  String.raw`).MatchString(url) {
		fail("${BASE_URL_ENV} must be an http:// or https:// URL", 2)
	}
	return strings.TrimRight(url, "/")
}

// shown is the answer as text; control characters other than line feed and tab shown as "?".
func shown(data []byte) string {
	text := strings.ToValidUTF8(string(data), "\uFFFD")
	return regexp.MustCompile(` +
  '`[\\x00-\\x08\\x0b-\\x1f\\x7f-\\x{9f}]`' +
  String.raw`).ReplaceAllString(text, "?")
}`;

const ARGUMENTS = String.raw`func usage() {
	names := make([]string, len(parameters))
	for i, p := range parameters {
		names[i] = p[0]
	}
	fmt.Fprintln(os.Stderr, "usage: "+filepath.Base(os.Args[0])+" "+strings.Join(names, " "))
	for _, p := range parameters {
		fmt.Fprintln(os.Stderr, "  "+p[0]+": "+p[1])
	}
	os.Exit(2)
}

// readArguments reads the program's parameters, in order, from the command line or else the environment.
func readArguments() map[string]string {
	given := os.Args[1:]
	if len(given) > len(parameters) {
		usage()
	}
	values := map[string]string{}
	for i, p := range parameters {
		value := os.Getenv(p[0])
		if i < len(given) {
			value = given[i]
		}
		if value == "" {
			usage()
		}
		values[p[0]] = value
	}
	return values
}`;

const KEYS =
  String.raw`// readKeys reads the keys from the environment; they are never printed.
func readKeys() (string, string) {
	apiKey, secretKey := os.Getenv(apiKeyEnv), os.Getenv(secretKeyEnv)
	if apiKey == "" || secretKey == "" {
		fail("set the environment variables "+apiKeyEnv+" (the API key) and "+secretKeyEnv+" (the secret key): this program holds no key", 2)
	}
	if !regexp.MustCompile(` +
  '`^[\\x21-\\x7e]+$`' +
  String.raw`).MatchString(apiKey) {
		fail("the API key in "+apiKeyEnv+" is not one word of printable ASCII: check how it was set", 2)
	}
	return apiKey, secretKey
}`;

const TIMESTAMP =
  String.raw`// nowMs is now in milliseconds; ${TIMESTAMP_ENV} fixes it, for tests only.
func nowMs() string {
	if fixed := os.Getenv("${TIMESTAMP_ENV}"); fixed != "" {
		if !regexp.MustCompile(` +
  '`^[0-9]{1,16}$`' +
  String.raw`).MatchString(fixed) {
			fail("${TIMESTAMP_ENV} must be a whole number of milliseconds", 2)
		}
		return fixed
	}
	return strconv.FormatInt(time.Now().UnixMilli(), 10)
}`;

const CLIENT_ORDER_ID = String.raw`// newClientOrderID is 32 random characters of A-Z a-z 0-9, as TradeReq's {{$clientOrderId}}.
func newClientOrderID() string {
	const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	id := make([]byte, 32)
	for i := range id {
		n, err := rand.Int(rand.Reader, big.NewInt(int64(len(alphabet))))
		if err != nil {
			fail("no randomness: "+err.Error(), 2)
		}
		id[i] = alphabet[n.Int64()]
	}
	return string(id)
}`;

const UUID = String.raw`// newUUID is a random (version 4) UUID.
func newUUID() string {
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		fail("no randomness: "+err.Error(), 2)
	}
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}`;

/** Values in Go (see renderings.ts): a header's text is Latin-1 bytes, as HTTP carries it. */
const GO: ValueRenderings = {
  empty: '""',
  join: ' + ',
  apiKey: 'apiKey',
  text: (p, inHeader) => goString(p.text, inHeader),
  parameter: (p) => `args[${goString(p.parameter)}]`,
  timestamp: { variable: 'timestamp', make: '\ttimestamp := nowMs()', helper: TIMESTAMP, imports: ['strconv'] },
  clientOrderId: {
    variable: 'clientOrderID',
    make: '\tclientOrderID := newClientOrderID()',
    helper: CLIENT_ORDER_ID,
    imports: ['crypto/rand', 'math/big'],
  },
  uuid: { variable: 'requestUUID', make: '\trequestUUID := newUUID()', helper: UUID, imports: ['crypto/rand'] },
};

const CONFIRM =
  String.raw`// oneLine is text shown on one line: control, invisible and bidirectional characters as "?".
func oneLine(text string) string {
	return regexp.MustCompile(` +
  '`[\\x00-\\x1f\\x7f-\\x{9f}\\x{200b}-\\x{200f}\\x{2028}-\\x{202e}\\x{2060}-\\x{206f}\\x{feff}]`' +
  String.raw`).ReplaceAllString(strings.ToValidUTF8(text, "\uFFFD"), "?")
}

// takeYes takes --yes, the program's one option, out of the arguments: it sends without asking.
func takeYes() bool {
	yes := false
	rest := []string{os.Args[0]}
	for _, arg := range os.Args[1:] {
		if arg == "--yes" {
			yes = true
		} else {
			rest = append(rest, arg)
		}
	}
	os.Args = rest
	return yes
}

// isTerminal: standard input is a character device other than the null device (the standard library has no isatty).
func isTerminal() bool {
	in, err := os.Stdin.Stat()
	if err != nil || in.Mode()&os.ModeCharDevice == 0 {
		return false
	}
	null, err := os.Stat(os.DevNull)
	return err == nil && !os.SameFile(in, null)
}

// confirm asks before sending (see the top of this file); --yes answers for a run without a terminal.
func confirm(order string, yes bool) {
	if yes {
		return
	}
	order = oneLine(order)
	if !isTerminal() {
		fail(order+noTerminalNote, ${NOT_CONFIRMED_EXIT})
	}
	fmt.Fprint(os.Stderr, "Send "+order+" to "+oneLine(currentBaseURL())+"? [y/N] ")
	answer, _ := bufio.NewReader(io.LimitReader(os.Stdin, 256)).ReadString('\n')
	if !regexp.MustCompile(` +
  '`^(?i)y(es)?$`' +
  String.raw`).MatchString(strings.TrimSpace(answer)) {
		fail(order+answeredNoNote, ${NOT_CONFIRMED_EXIT})
	}
}`;

const SEND = String.raw`// send makes one exchange. A redirect is an answer to print, never followed: it could carry the key elsewhere.
func send(url string, headers [][2]string, body string) (int, []byte) {
	var reader io.Reader
	if body != "" {
		reader = strings.NewReader(body)
	}
	request, err := http.NewRequest(method, url, reader)
	if err != nil {
		fail("cannot build the request: "+err.Error(), 2)
	}
	for _, h := range headers {
		request.Header[h[0]] = []string{h[1]}
	}
	client := &http.Client{
		Timeout: ${DEADLINE_SECONDS} * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error {
			return http.ErrUseLastResponse
		},
	}
	response, err := client.Do(request)
	if err != nil {
		fail("no answer from "+strings.SplitN(url, "?", 2)[0]+" ("+err.Error()+"): "+unknownNote, 3)
	}
	defer response.Body.Close()
	data, err := io.ReadAll(io.LimitReader(response.Body, maxResponseBytes))
	if err != nil {
		fail("the answer broke off ("+err.Error()+"): "+unknownNote, 3)
	}
	return response.StatusCode, data
}`;

function signing(plan: Plan): string[] {
  if (!plan.request.signed) return [];
  const target = plan.request.signaturePlacement === 'body' ? 'body' : 'queryString';
  return [
    `\t// ${NOTES.signing}`,
    '\ttotalParams := queryString + body',
    '\tmac := hmac.New(sha256.New, []byte(secretKey))',
    '\tmac.Write([]byte(totalParams))',
    `\t${target} = withPair(${target}, "signature="+hex.EncodeToString(mac.Sum(nil)))`,
  ];
}

const BODY: BodyStatements = {
  none: ['\tbody := ""'],
  form: ['\tbody := encodeParams(form)'],
  json: (value) => [`\t// ${NOTES.jsonBody}`, `\tbody := ${value}`],
};

function build(plan: Plan): string[] {
  const r = plan.request;
  const lines: string[] = [];
  if (r.confirm) lines.push('\tyes := takeYes()');
  // Go refuses a variable declared and not used.
  if (r.parameters.length > 0) lines.push(plan.usesParameters ? '\targs := readArguments()' : '\treadArguments()');
  if (r.signed) lines.push('\tapiKey, secretKey := readKeys()');
  lines.push(...makePieces(plan, GO, 'beforeAsking'));
  if (r.confirm) {
    // A variable: gofmt spaces a + b in an assignment, not in a call's arguments.
    lines.push(`\torder := ${renderValue(r.confirm.order, GO)}`, '\tconfirm(order, yes)');
    lines.push(...makePieces(plan, GO, 'afterAnswer'));
  }
  goPairs(lines, 'query', r.query);
  if (plan.body === 'form') goPairs(lines, 'form', r.form);
  if (plan.addTimestamp) {
    lines.push(`\t// ${NOTES.addedTimestamp}`);
    lines.push(`\t${plan.addTimestamp} = append(${plan.addTimestamp}, param{"timestamp", timestamp})`);
  }
  lines.push('\tqueryString := encodeParams(query)');
  lines.push(...bodyStatements(plan, BODY, GO));
  for (const line of signing(plan)) lines.push(line);
  lines.push('\theaders := [][2]string{');
  for (const h of plan.headers) lines.push(`\t\t{${goString(h.name)}, ${renderValue(h.value, GO, true)}},`);
  lines.push('\t}');
  return lines;
}

const MAIN_END = `\turl := currentBaseURL() + path
\tif queryString != "" {
\t\turl += "?" + queryString
\t}
\tstatus, data := send(url, headers, body)
\tfmt.Printf("%d\\n%s\\n", status, shown(data))
\tswitch {
\tcase status >= 200 && status < 300:
\t\tos.Exit(0)
\tcase status >= 500:
\t\tfmt.Fprintf(os.Stderr, "status %d: %s\\n", status, unknownNote)
\t\tos.Exit(3)
\t}
\tos.Exit(1)
}`;

function imports(plan: Plan): string[] {
  const r = plan.request;
  const names = ['fmt', 'io', 'net/http', 'os', 'regexp', 'strings', 'time'];
  if (r.parameters.length > 0) names.push('path/filepath');
  if (r.signed) names.push('crypto/hmac', 'crypto/sha256', 'encoding/hex');
  names.push(...pieceImports(plan, GO));
  if (r.confirm) names.push('bufio');
  return ['import (', ...names.sort().map((n) => `\t"${n}"`), ')'];
}

export function generateGo(plan: Plan): string {
  const functions = programFunctions(
    plan,
    { helpers: HELPERS, arguments: ARGUMENTS, keys: KEYS, confirm: CONFIRM, send: SEND },
    GO,
  );
  const parts = [
    // After the package clause: no comment line there can be a build constraint (`// +build`),
    // and gofmt does not reflow it as a doc comment.
    'package main',
    commentBlock(aboutLines(plan, 'go'), '//').join('\n'),
    imports(plan).join('\n'),
    constants(plan).join('\n'),
    ...functions,
    ['func main() {', ...build(plan), MAIN_END].join('\n'),
  ];
  return parts.join('\n\n') + '\n';
}
