/**
 * A bash script with curl and openssl. Every value is quoted (no eval, no unquoted expansion).
 * The secret key never appears in a process's arguments, where `ps` would show it: every openssl
 * option that takes an HMAC key takes it on the command line, so the script builds HMAC-SHA256
 * itself (RFC 2104) around `openssl dgst -sha256`, feeding the key through pipes from bash's
 * builtin printf. The API key reaches curl the same way, in a header file (`--header @FILE`).
 */
import type { NamedValue } from './program-model';
import {
  bodyStatements,
  makePieces,
  programFunctions,
  renderValue,
  type BodyStatements,
  type ValueRenderings,
} from './renderings';
import {
  BASE_URL_ENV,
  CONNECT_TIMEOUT_SECONDS,
  DEADLINE_SECONDS,
  MAX_RESPONSE_BYTES,
  NOT_CONFIRMED_EXIT,
  UNKNOWN_OUTCOME,
  TIMESTAMP_ENV,
  type Plan,
} from './plan';
import { aboutLines, codePoints, commentBlock, commentText, hex, isPlainAscii, notConfirmedNotes, NOTES } from './text';

function utf8Bytes(code: number): number[] {
  return [...Buffer.from(String.fromCodePoint(code), 'utf8')];
}

/**
 * One shell word holding exactly `text`: '...' when that is enough, else $'...' with every byte
 * outside printable ASCII as \xHH (UTF-8 bytes, or with `latin1` one byte per character ≤ U+00FF).
 */
function shString(text: string, latin1 = false): string {
  const points = codePoints(text);
  // The text itself (printable ASCII), never String.fromCodePoint(...points): a value may be millions long.
  if (points.every((c) => isPlainAscii(c) && c !== 0x27)) return `'${text}'`;
  let out = "$'";
  for (const c of points) {
    if (c === 0x5c) out += '\\\\';
    else if (c === 0x27) out += "\\'";
    else if (isPlainAscii(c)) out += String.fromCharCode(c);
    else {
      const bytes = latin1 && c <= 0xff ? [c] : utf8Bytes(c);
      for (const b of bytes) out += '\\x' + hex(b, 2);
    }
  }
  return out + "'";
}

/** Appends the list's declaration to `lines`, one line a pair (pushed, not spread: a list may be long). */
function shPairs(lines: string[], name: string, list: readonly NamedValue[], values: ValueRenderings): void {
  if (list.length === 0) {
    lines.push(`  local ${name}=()`);
    return;
  }
  lines.push(`  local ${name}=(`);
  for (const p of list) lines.push(`    ${shString(p.name)} ${renderValue(p.value, values)}`);
  lines.push('  )');
}

/**
 * The keys, read before anything else (no variable of the script exists yet to shadow an
 * upper-case name) and taken out of the environment, so that no command the script runs inherits them.
 */
function readKeys(plan: Plan): string[] {
  const { apiKey, secretKey } = plan.request.keyEnv;
  if (!plan.request.signed) return [];
  return [
    '# The keys: read first, then taken out of the environment, so that no command this script runs',
    '# (curl, openssl, od...) inherits them. They are never in a command line, where ps would show them.',
    `api_key="\${${apiKey}}"`,
    `secret_key="\${${secretKey}}"`,
    `unset -v ${apiKey} ${secretKey}`,
  ];
}

/** curl infers POST from a body and GET without one, and warns when told what it infers. */
function needsMethodOption(plan: Plan): boolean {
  return plan.request.method !== (plan.sendsBody ? 'POST' : 'GET');
}

function constants(plan: Plan): string[] {
  const r = plan.request;
  const lines = [`BASE_URL=${shString(plan.baseUrl)}`, `REQUEST_PATH=${shString(r.path)}`];
  if (needsMethodOption(plan)) lines.push(`METHOD=${shString(r.method)}`);
  if (r.signed) {
    lines.push(`API_KEY_ENV=${shString(r.keyEnv.apiKey)}`, `SECRET_KEY_ENV=${shString(r.keyEnv.secretKey)}`);
  }
  if (r.parameters.length > 0) {
    lines.push(`PARAMETER_NAMES=(${r.parameters.map((p) => ' ' + shString(p.name)).join('')} )`);
    lines.push('PARAMETER_DESCRIPTIONS=(');
    for (const p of r.parameters) lines.push(`  ${shString(commentText(p.description))}`);
    lines.push(')');
  }
  if (r.confirm) {
    const notes = notConfirmedNotes(r.confirm.reason);
    lines.push(`NO_TERMINAL_NOTE=${shString(notes.noTerminal)}`, `ANSWERED_NO_NOTE=${shString(notes.answeredNo)}`);
  }
  lines.push(`MAX_RESPONSE_BYTES=${MAX_RESPONSE_BYTES}`, `UNKNOWN_NOTE=${shString(UNKNOWN_OUTCOME)}`);
  return lines;
}

const HELPERS = String.raw`fail() {
  printf 'error: %s\n' "$1" >&2
  exit "${'${2:-2}'}"
}

# Strict percent-encoding: every byte outside A-Z a-z 0-9 - _ . ~ as %XX, upper-case hex (LC_ALL=C:
# bash sees the UTF-8 bytes). Sets ENCODED.
encode() {
  local text="$1" out='' char code i
  for (( i = 0; i < ${'${#text}'}; i++ )); do
    char="${'${text:i:1}'}"
    case "$char" in
      [A-Za-z0-9._~-]) out+="$char" ;;
      *)
        printf -v code '%d' "'$char"
        printf -v char '%%%02X' "$(( code & 255 ))"
        out+="$char"
        ;;
    esac
  done
  ENCODED="$out"
}

# name value name value ... as name=value&... with both sides encoded. Sets PARAMS.
encode_params() {
  local out='' name
  while (( $# >= 2 )); do
    encode "$1"
    name="$ENCODED"
    encode "$2"
    out+="${'${out:+&}'}$name=$ENCODED"
    shift 2
  done
  PARAMS="$out"
}

base_url() {
  local url="${'${' + BASE_URL_ENV + ':-$BASE_URL}'}"
  [[ "$url" =~ ^https?://[^[:space:]]+$ ]] || fail '${BASE_URL_ENV} must be an http:// or https:// URL'
  while [[ "$url" == */ ]]; do url="${'${url%/}'}"; done
  printf '%s' "$url"
}`;

const ARGUMENTS = String.raw`usage() {
  {
    printf 'usage: %s' "${'${0##*/}'}"
    printf ' %s' "${'${PARAMETER_NAMES[@]}'}"
    printf '\n'
    for i in "${'${!PARAMETER_NAMES[@]}'}"; do
      printf '  %s: %s\n' "${'${PARAMETER_NAMES[i]}'}" "${'${PARAMETER_DESCRIPTIONS[i]}'}"
    done
  } >&2
  exit 2
}

# The program's parameters, in order, from the command line or else the environment. Sets args.
read_arguments() {
  local given=("$@") i value
  (( ${'${#given[@]}'} <= ${'${#PARAMETER_NAMES[@]}'} )) || usage
  args=()
  for i in "${'${!PARAMETER_NAMES[@]}'}"; do
    if (( i < ${'${#given[@]}'} )); then
      value="${'${given[i]}'}"
    else
      value="$(printenv -- "${'${PARAMETER_NAMES[i]}'}" || true)"
    fi
    [[ -n "$value" ]] || usage
    args+=("$value")
  done
}`;

const KEYS = String.raw`# The keys were read at the top; they are never printed.
check_keys() {
  if [[ -z "$api_key" || -z "$secret_key" ]]; then
    fail "set the environment variables $API_KEY_ENV (the API key) and $SECRET_KEY_ENV (the secret key): this program holds no key"
  fi
  [[ "$api_key" =~ ^[!-~]+$ ]] || fail "the API key in $API_KEY_ENV is not one word of printable ASCII: check how it was set"
}

# The bytes of standard input as hexadecimal digits, with no spaces.
to_hex() {
  od -An -v -tx1 | tr -d ' \n'
}

# HMAC-SHA256 (RFC 2104) of $1 with secret_key, as lower-case hex; openssl only hashes. Sets SIGNATURE.
hmac_sha256() {
  local key ipad='' opad='' inner='' byte i
  key="$(printf '%s' "$secret_key" | to_hex)"
  if (( ${'${#key}'} > 128 )); then
    key="$(printf '%s' "$secret_key" | openssl dgst -sha256 -binary | to_hex)"
  fi
  while (( ${'${#key}'} < 128 )); do key+=00; done
  for (( i = 0; i < 128; i += 2 )); do
    byte="$(( 16#${'${key:i:2}'} ))"
    printf -v ipad '%s\\x%02x' "$ipad" "$(( byte ^ 0x36 ))"
    printf -v opad '%s\\x%02x' "$opad" "$(( byte ^ 0x5c ))"
  done
  key="$( { printf '%b' "$ipad"; printf '%s' "$1"; } | openssl dgst -sha256 -binary | to_hex)"
  for (( i = 0; i < 64; i += 2 )); do inner+="\\x${'${key:i:2}'}"; done
  SIGNATURE="$( { printf '%b' "$opad"; printf '%b' "$inner"; } | openssl dgst -sha256 -r)"
  SIGNATURE="${'${SIGNATURE%% *}'}"
  [[ "$SIGNATURE" =~ ^[0-9a-f]{64}$ ]] || fail 'openssl dgst -sha256 did not give a SHA-256 digest'
}`;

const TIMESTAMP = String.raw`# Now in milliseconds; ${TIMESTAMP_ENV} fixes it, for tests only. Sets timestamp.
now_ms() {
  if [[ -n "${'$' + TIMESTAMP_ENV}" ]]; then
    [[ "${'$' + TIMESTAMP_ENV}" =~ ^[0-9]{1,16}$ ]] || fail '${TIMESTAMP_ENV} must be a whole number of milliseconds'
    timestamp="${'$' + TIMESTAMP_ENV}"
  elif [[ -n "${'${EPOCHREALTIME}'}" ]]; then
    timestamp="${'${EPOCHREALTIME//[!0-9]/}'}"
    timestamp="${'${timestamp%???}'}"
  else
    timestamp="$(date +%s%3N)"
    [[ "$timestamp" =~ ^[0-9]+$ ]] || timestamp="$(date +%s)000"
  fi
}`;

const CLIENT_ORDER_ID = String.raw`# 32 random characters of A-Z a-z 0-9, as TradeReq's {{$clientOrderId}}. Sets client_order_id.
new_client_order_id() {
  local alphabet=ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789 bytes byte
  client_order_id=''
  while (( ${'${#client_order_id}'} < 32 )); do
    read -r -d '' -a bytes < <(od -An -v -N64 -tu1 /dev/urandom) || true
    for byte in "${'${bytes[@]}'}"; do
      # Bytes from 248 up are skipped: 248 = 4 × 62, so every character is as likely.
      (( byte < 248 )) || continue
      client_order_id+="${'${alphabet:byte % 62:1}'}"
      (( ${'${#client_order_id}'} < 32 )) || break
    done
  done
}`;

const UUID = String.raw`# A random (version 4) UUID. Sets request_uuid.
new_uuid() {
  local h
  h="$(od -An -v -N16 -tx1 /dev/urandom | tr -d ' \n')"
  printf -v request_uuid '%s-%s-4%s-%x%s-%s' "${'${h:0:8}'}" "${'${h:8:4}'}" "${'${h:13:3}'}" \
    "$(( (16#${'${h:16:1}'} & 3) | 8 ))" "${'${h:17:3}'}" "${'${h:20:12}'}"
}`;

/**
 * Values in bash (see renderings.ts): words, quoted, that join by standing side by side; a parameter is
 * its place in the script's `args` array, and a header's text is Latin-1 bytes, as HTTP carries it.
 */
function shellValues(plan: Plan): ValueRenderings {
  const index = new Map(plan.request.parameters.map((p, i) => [p.name, i]));
  return {
    empty: "''",
    join: '',
    apiKey: '"$api_key"',
    text: (p, inHeader) => shString(p.text, inHeader),
    parameter: (p) => `"\${args[${index.get(p.parameter) ?? -1}]}"`,
    timestamp: { variable: '"${timestamp}"', make: '  now_ms', helper: TIMESTAMP, imports: [] },
    clientOrderId: {
      variable: '"${client_order_id}"',
      make: '  new_client_order_id',
      helper: CLIENT_ORDER_ID,
      imports: [],
    },
    uuid: { variable: '"${request_uuid}"', make: '  new_uuid', helper: UUID, imports: [] },
  };
}

const CONFIRM = String.raw`# $1 shown on one line: control, invisible and bidirectional characters as "?" (UTF-8 bytes:
# C1 controls, U+200B-U+200F, U+2028-U+202E, U+2060-U+206F, U+FEFF). Sets SHOWN.
one_line() {
  local text="$1"
  text="${'$'}{text//[$'\x01'-$'\x1f'$'\x7f']/?}"
  text="${'$'}{text//$'\xc2'[$'\x80'-$'\x9f']/?}"
  text="${'$'}{text//$'\xe2\x80'[$'\x8b'-$'\x8f'$'\xa8'-$'\xae']/?}"
  text="${'$'}{text//$'\xe2\x81'[$'\xa0'-$'\xaf']/?}"
  SHOWN="${'$'}{text//$'\xef\xbb\xbf'/?}"
}

# Asks before sending (see the top of this script); $2, --yes, answers for a run without a terminal.
confirm() {
  local order where answer
  [[ -z "$2" ]] || return 0
  one_line "$1"
  order="$SHOWN"
  [[ -t 0 ]] || fail "$order$NO_TERMINAL_NOTE" ${NOT_CONFIRMED_EXIT}
  one_line "$(base_url)"
  where="$SHOWN"
  printf 'Send %s to %s? [y/N] ' "$order" "$where" >&2
  read -r answer || answer=''
  [[ "$answer" =~ ^[Yy]([Ee][Ss])?$ ]] || fail "$order$ANSWERED_NO_NOTE" ${NOT_CONFIRMED_EXIT}
}`;

function sendFunction(plan: Plan): string {
  const methodOption = needsMethodOption(plan) ? ' --request "$METHOD"' : '';
  return String.raw`# A header value is one line: a line break would start another header.
check_headers() {
  local i
  for (( i = 1; i < ${'${#headers[@]}'}; i += 2 )); do
    if [[ "${'${headers[i]}'}" == *[$'\r\n']* ]]; then
      fail "the value of header ${'${headers[i-1]}'} holds a line break"
    fi
  done
}

# Headers as curl reads them from a file, one a line; an empty value is written "Name;".
print_headers() {
  local i
  for (( i = 0; i < ${'${#headers[@]}'}; i += 2 )); do
    if [[ -z "${'${headers[i+1]}'}" ]]; then
      printf '%s;\n' "${'${headers[i]}'}"
    else
      printf '%s: %s\n' "${'${headers[i]}'}" "${'${headers[i+1]}'}"
    fi
  done
}

# One exchange: prints the status; the answer goes to response_file. curl never follows a redirect
# here (no --location): it could carry the key elsewhere. -q: no ~/.curlrc.
send() {
  local options=(
    -q --silent --show-error --globoff --path-as-is --proto '=http,https'
    --connect-timeout ${CONNECT_TIMEOUT_SECONDS} --max-time ${DEADLINE_SECONDS} --max-filesize "$MAX_RESPONSE_BYTES"
    --output "$response_file" --write-out '%{http_code}'${methodOption}
  )
  if [[ -n "$body" ]]; then
    printf '%s' "$body" | curl "${'${options[@]}'}" --header @<(print_headers) --data-binary @- --url "$1"
  else
    curl "${'${options[@]}'}" --header @<(print_headers) --url "$1"
  fi
}`;
}

function signing(plan: Plan): string[] {
  if (!plan.request.signed) return [];
  const target = plan.request.signaturePlacement === 'body' ? 'body' : 'query_string';
  return [
    `  # ${NOTES.signing}`,
    '  hmac_sha256 "$query_string$body"',
    `  ${target}+="\${${target}:+&}signature=$SIGNATURE"`,
  ];
}

const BODY: BodyStatements = {
  none: ["  local body=''"],
  form: ['  encode_params "${form[@]}"', '  local body="$PARAMS"'],
  json: (value) => [`  # ${NOTES.jsonBody}`, `  local body=${value}`],
};

function build(plan: Plan, values: ValueRenderings): string[] {
  const r = plan.request;
  const lines: string[] = [];
  if (r.confirm) {
    lines.push(
      "  # --yes, the script's one option, taken out of the arguments: it sends without asking.",
      "  local yes='' given=() arg",
      '  for arg in "$@"; do',
      '    if [[ "$arg" == --yes ]]; then yes=1; else given+=("$arg"); fi',
      '  done',
      '  set -- "${given[@]}"',
    );
  }
  if (r.parameters.length > 0) lines.push('  read_arguments "$@"');
  if (r.signed) lines.push('  check_keys');
  lines.push(...makePieces(plan, values, 'beforeAsking'));
  if (r.confirm) {
    lines.push(`  confirm ${renderValue(r.confirm.order, values)} "$yes"`);
    lines.push(...makePieces(plan, values, 'afterAnswer'));
  }
  lines.push('  # name value pairs, in order');
  shPairs(lines, 'query', r.query, values);
  if (plan.body === 'form') shPairs(lines, 'form', r.form, values);
  if (plan.addTimestamp) {
    lines.push(`  # ${NOTES.addedTimestamp}`);
    lines.push(`  ${plan.addTimestamp}+=('timestamp' "$timestamp")`);
  }
  lines.push('  encode_params "${query[@]}"', '  local query_string="$PARAMS"');
  lines.push(...bodyStatements(plan, BODY, values));
  for (const line of signing(plan)) lines.push(line);
  lines.push('  local headers=(');
  for (const h of plan.headers) lines.push(`    ${shString(h.name)} ${renderValue(h.value, values, true)}`);
  lines.push('  )', '  check_headers');
  return lines;
}

const MAIN_END = String.raw`  local base url status
  base="$(base_url)"
  url="$base$REQUEST_PATH${'${query_string:+?}'}$query_string"
  response_file="$(mktemp)"
  trap 'rm -f -- "$response_file"' EXIT
  if ! status="$(send "$url")"; then
    fail "no answer from $base$REQUEST_PATH: $UNKNOWN_NOTE" 3
  fi
  printf '%s\n' "$status"
  head -c "$MAX_RESPONSE_BYTES" -- "$response_file" | tr '\000-\010\013-\037\177' '?'
  printf '\n'
  case "$status" in
    2[0-9][0-9]) exit 0 ;;
    5[0-9][0-9])
      printf 'status %s: %s\n' "$status" "$UNKNOWN_NOTE" >&2
      exit 3
      ;;
    *) exit 1 ;;
  esac
}

main "$@"`;

export function generateShell(plan: Plan): string {
  const values = shellValues(plan);
  const functions = programFunctions(
    plan,
    { helpers: HELPERS, arguments: ARGUMENTS, keys: KEYS, confirm: CONFIRM, send: sendFunction(plan) },
    values,
  );
  const parts = [
    ['#!/usr/bin/env bash', ...commentBlock(aboutLines(plan, 'shell'), '#')].join('\n'),
    [
      'set -eo pipefail',
      ...readKeys(plan),
      '# Bytes, not characters: the encoding and the HMAC work on UTF-8 bytes.',
      'export LC_ALL=C',
    ].join('\n'),
    constants(plan).join('\n'),
    ...functions,
    ['main() {', ...build(plan, values), MAIN_END].join('\n'),
  ];
  return parts.join('\n\n') + '\n';
}
