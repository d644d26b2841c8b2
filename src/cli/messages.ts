/**
 * Every message the command line writes itself, in English (a command line's convention), in one
 * place so that a translation works from this file alone: help texts, errors, notes, summaries and
 * prompts, grouped by command (one object each) after the groups that several commands share. A
 * message with values is a function of them; the values come in as they are, and the terminal
 * (terminal.ts) escapes what is written. The core's own texts (diagnostics, the catalog, reports)
 * are the core's. Each command's bundle keeps only the groups it uses (esbuild drops the others),
 * so nothing here runs at load: no imports but types, no calls at top level.
 * test/unit/cli/messages.test.ts fails when another file of src/cli/ writes a message of its own.
 */
import type { UsedAnswer } from '../core/request/kept-answers';
import type { CompletionCommand } from './completion-command';

/** `tradereq` itself (main.ts): its help, and a command line it cannot run. */
export const MAIN = {
  help: `Usage: tradereq COMMAND [options]

Craft, sign and check requests to the trading service from .tradereq files.

Commands:
  init [DIR]    write a starter: tradereq.env.json and request files that pass test --sandbox
  send FILE     sign and send requests; print the decoded answer and the budget left
  listen FILE   connect a WebSocket request (WS /ws), print its pushes, check its expectations
  sign FILE     print a request exactly as it would be sent (signed), without sending it
  check PATH... report what the service would reject, before anything is sent
  test [PATH]   run request files as tests (CI: --sandbox, --reporter junit)
  errors [CODE] explain the service's error codes
  doctor [FILE] explain why the service refused what your own program sent (signature, timestamp)
  sandbox       run the sandbox exchange on loopback, with demo keys
  state         show or reset the rate-limit state (budgets, waits, bans)
  import KIND   turn a cURL command, a Postman collection or a .http file into .tradereq files
  code FILE     print a program (Python, Node, Go, shell) that signs and sends a request
  completion SHELL  print a completion script for bash, zsh or fish

Options of every command: --no-color (no colour even on a terminal; so does NO_COLOR, unless
FORCE_COLOR is set: FORCE_COLOR=1 colours piped output too, FORCE_COLOR=0 never), -h/--help.
Run tradereq COMMAND --help for the options of a command; tradereq --version prints the version.

Exit codes: 0 ok; 1 a request was rejected, an expectation or a check failed; 2 bad input (nothing
sent); 3 an outcome is unknown (it may have succeeded: never retry an order blindly); 4 refused
before sending (rate-limit budget, ban, origin binding, no confirmation). Each command's --help
says which it uses.`,
  version: (version: string) => `tradereq ${version}`,
  needsCommand: (commands: readonly string[]) => `a command is needed: ${commands.join(', ')}. See: tradereq --help`,
  unknownCommand: (command: string, guess: string | undefined, commands: readonly string[]) => {
    const known = `use ${commands.join(', ')}`;
    return `unknown command "${command}": ${guess ? `did you mean "${guess}"? Else ${known}` : known}. See: tradereq --help`;
  },
  unexpected: (message: string) => `tradereq: unexpected failure: ${message}`,
};

/** Every command's lines of its own on standard error (bad input, a note, a warning): the program's name first. */
export const CLI = {
  said: (message: string) => `tradereq: ${message}`,
  warning: (warning: string) => `tradereq: warning: ${warning}`,
};

/** The options of every command (args.ts). */
export const OPTIONS = {
  /** A problem with the options, and where their help is. */
  seeHelp: (failure: string, command: string) =>
    `${failure}${failure.endsWith('?') ? '' : '.'} See: tradereq ${command} --help`,
  needsValue: (option: string) => `${option} needs a value (one that starts with "-" is written ${option}=VALUE)`,
  unknownOption: (option: string, guess: string | undefined) =>
    `unknown option '${option}'${guess ? `: did you mean --${guess}?` : ''}`,
  wholeNumber: (name: string, value: string, min: number, max: number) => {
    const range = min > 0 ? `of at least ${min} and at most ${max}` : `of at most ${max}`;
    return `--${name} takes a whole number ${range}, not "${value}"`;
  },
  keyProfile: '--key names a key profile: letters, digits, "-" and "_"',
  /** An empty argument (an unset $FILE in a script): never read as "everything here". */
  emptyArgument: 'an argument is empty (an unset variable in a script?): name a file or folder',
  emptyValue: (option: string) => `--${option} is given an empty value`,
};

/** Files and standard input as the commands read them (workspace.ts, test-files.ts, stdin.ts, import, doctor). */
export const INPUT = {
  folderNotRequestFile: (path: string) => `${path} is a folder: name a .tradereq file`,
  folderNotFile: (path: string) => `${path} is a folder: name a file`,
  tooLarge: (path: string, bytes: number, most: string) =>
    `${path} has ${bytes} bytes, more than TradeReq reads (${most}): split it into smaller files`,
  noSuchFile: (path: string) => `${path}: no such file`,
  cannotRead: (path: string, code: string) => `${path}: cannot read it (${code})`,
  envFileTooLarge: (path: string, most: string) =>
    `${path} is larger than TradeReq reads (${most}): it names environments and should be small`,
  unknownEnvFlag: (flag: string, error: string) => `--env ${flag}: ${error}: give --env one of them`,
  unknownEnvVariable: (error: string) => `TRADEREQ_ENV: ${error}: set TRADEREQ_ENV to one of them, or unset it`,
  noRequest: (path: string) => `${path} holds no request: add a request line such as POST /api/v3/order`,
  chooseRequest: (path: string, count: number, list: string) =>
    `${path} holds ${count} requests: choose one with --request NAME or --request INDEX (${list})`,
  noRequestAt: (wanted: string, path: string, count: number, list: string) =>
    `no request ${wanted} in ${path}: it holds ${count} (${list})`,
  noRequestNamed: (wanted: string, path: string, list: string) =>
    `no request named "${wanted}" in ${path}: requests are ${list}`,
  /** The request files under the paths of check and test (test-files.ts). */
  tooManyFiles: (most: number, paths: readonly string[]) =>
    `more than ${most} request files under ${paths.join(', ')}: name fewer folders`,
  noSuchPath: (path: string) => `${path}: no such file or folder`,
  noFiles: (paths: readonly string[]) => `no .tradereq file in ${paths.join(', ')}`,
  stdinTimeout: (seconds: number) => `nothing arrived on standard input within ${seconds} s`,
  stdinFailed: (message: string) => `cannot read standard input (${message})`,
  /** A request file named "-" (stdin.ts readRequestStdin). */
  stdinIsTerminal: 'standard input is a terminal: pipe the request file in (tradereq check - < FILE), or name the file',
  stdinTooLarge: (most: string) =>
    `the request file on standard input is more than TradeReq reads (${most}): split it into smaller files`,
  onlyStdin: '- (standard input) is the only PATH when it is given: name the other files in another run',
  dataFromStdin: (path: string) =>
    `# @data ${path}: a request file read from standard input has no folder, so its data file is not read: name the request file instead of -`,
};

/** From a file's request to a prepared one, for send, sign, code, listen and test (prepare.ts, send.ts's confirmation). */
export const REQUESTS = {
  requestOrAll: 'give --request or --all, not both',
  baseUrl: (value: string) =>
    `--base-url must be an http:// or https:// URL such as http://127.0.0.1:8780, not "${value}"`,
  /** The question before an order that asks for confirmation, on a terminal. */
  confirm: (order: string, environment: string, origin: string) => `Send ${order} to ${environment} (${origin})?`,
  /** After the question (escaped by then): the answers it takes, no by default. */
  yesNo: (question: string) => `${question} [y/N] `,
  notConfirmedAnswered: (order: string) =>
    `${order} was not sent: you answered no. To send it, run again and answer y, or pass --yes.`,
  notConfirmedNoTerminal: (order: string, reason: string) =>
    `${order} needs confirmation (${reason}) and there is no terminal to ask: pass --yes to send it.`,
  /** A trade with the user's own key where nobody can answer (CI): both ways the key's owner can decide. */
  notConfirmedOwner: (order: string, reason: string, optOut: string) =>
    `${order} needs confirmation (${reason}) and there is no terminal to ask: nothing was sent. To send it: ${optOut}.`,
  /** How the owner of a key from the environment sends its trades unasked: this command line, or the key's own setting. */
  optOut: (variable: string) => `pass --yes, or set ${variable}=off where you keep the key`,
  /** Who decided that a trade goes unasked, as a confirmation's absence is explained. */
  ownerSaidOff: (variable: string) => `${variable}=off`,
  badOwnerSetting: (variable: string, value: string) =>
    `${variable} is "${value}": it takes on (ask before each trade signed with this key, the default) or off (send them without asking)`,
  noKey: (profile: string, prefix: string) =>
    `no key for profile "${profile}": set ${prefix}API_KEY and ${prefix}SECRET_KEY (or TRADEREQ_API_KEY and TRADEREQ_SECRET_KEY) in the environment`,
  /** Where a key's allowed origins come from, as a refusal names it. */
  demoKeyOrigins: 'the sandbox demo key (loopback only)',
  baseUrlOrigins: (variable: string) => `--base-url (no ${variable} is set)`,
  unsetOrigins: (variable: string) => `${variable}, which is not set`,
  /** Which earlier answer a request read, and when it came: the user can tell a stale one. */
  usedAnswer: (u: UsedAnswer) =>
    `(read the answer of "${u.name}" kept from an earlier run, received ${new Date(u.at).toISOString()})`,
  /** An expectation of a request or of a WebSocket run, after its ✔ or ✘: what came back when it failed. */
  expectation: (text: string, passed: boolean, actual: string) => `${text}${passed ? '' : ` (got ${actual})`}`,
  /** An expectation only `tradereq test` judges (# @expect snapshot), after a send: neither ✔ nor ✘. */
  notChecked: (text: string) => `${text}: not checked by send`,
  /**
   * A request with errors that check finds, not sent (send, test): each finding as "FILE:LINE:COL:
   * RULE: message", the first of them when there are many, and how to send it anyway.
   */
  checkErrors: (shown: readonly string[], all: number, file: string) =>
    `check found ${all} error${all === 1 ? '' : 's'} in this request, which the service would refuse (--no-check sends it anyway):\n` +
    shown.map((line) => `  ${line}`).join('\n') +
    (all > shown.length ? `\n  … and ${all - shown.length} more: tradereq check ${file} lists them all` : ''),
};

/** The rate-limit budget as one line (budget-text.ts), for send and state. */
export const BUDGET = {
  account: 'account',
  ip: 'IP',
  counter: (name: string, remaining: number, limit: number, freesInSeconds: number | undefined) =>
    `${name} ${remaining}/${limit} left${freesInSeconds !== undefined ? ` (frees in ${freesInSeconds} s)` : ''}`,
  banned: (seconds: number) => `banned: nothing sent for ${seconds} s`,
  backingOff: (seconds: number) => `backing off: nothing sent for ${seconds} s`,
  damaged: 'state damaged: nothing is sent until it is reset (tradereq state reset)',
};

export const SEND = {
  help: (v: {
    deadlineMs: number;
    connectTimeoutMs: number;
    maxTimeoutMs: number;
    stateDir: string;
    network: string;
  }) =>
    `Usage: tradereq send FILE [--request NAME|INDEX | --all] [--env NAME] [--base-url URL] [--json]

Signs and sends requests of FILE, and prints for each the status, the outcome, the decoded error
code, the response, the rate-limit budget left and the timings, and checks its # @expect lines.

  --request NAME|INDEX  the request named by "# @name NAME", or its position (1 is the first)
  --all                 every request of the file, in order; {{NAME.response.PATH}} reads the
                        responses of requests sent earlier in the run
  --env NAME            environment of tradereq.env.json (default: TRADEREQ_ENV, the file's only
                        environment, or "sandbox")
  --base-url URL        send to this base URL instead of the environment's; a key profile without
                        TRADEREQ_<PROFILE>_ORIGINS may be sent only to this origin
  --yes                 confirm requests that ask for it without a prompt: trades signed with your
                        own key (unless TRADEREQ_<PROFILE>_CONFIRM=off), # @confirm, "confirm": true
  --no-clock-sync       do not correct timestamps by the server clock offset
  --timeout MS          time the whole exchange may take, answer included (default ${v.deadlineMs}, at most ${v.maxTimeoutMs})
  --connect-timeout MS  time to wait for the connection (default ${v.connectTimeoutMs}, at most ${v.maxTimeoutMs})
  --json                print one JSON object per request, one per line
  --row N               for a request with # @data FILE: send with row N of FILE (default the
                        first, said on standard error)
  --no-check            send a request even when check finds errors in it (by default such a
                        request is not sent: exit 2, with the findings); findings its own
                        # @expect lines anticipate (# @expect code N) and warnings never stop it
${v.network}
  -h, --help            this help

Exit codes: 0 all ok; 1 a request was rejected, not sent, or an expectation failed; 2 bad input
(nothing sent; also a request with errors that check finds, without --no-check); 3 an outcome is
unknown (5xx or no answer after sending: it may have succeeded); 4 refused by the gate (rate-limit
budget, Retry-After or ban, origin binding, no confirmation).

Rate-limit budget, Retry-After waits and clock offsets are kept in ${v.stateDir}
(TRADEREQ_STATE_DIR overrides), shared with the VS Code extension.`,
  takesOneFile: 'send takes one FILE. See: tradereq send --help',
  row: (value: string) =>
    `--row takes the number of a row of the request's # @data file (1 is the first), not "${value}"`,
  dataFile: (error: string) => `# @data: ${error}`,
  noRow: (row: number, path: string, rows: number) => `--row ${row}: ${path} has ${rows} row${rows === 1 ? '' : 's'}`,
  /** Which row of a `# @data` file a send used; `others` when --row could pick another. */
  dataRow: (path: string, row: number, rows: number, others: boolean) =>
    `# @data ${path}: row ${row} of ${rows}${others ? '; --row N sends another' : ''}`,
  notSent: (refused: boolean, why: string) => `→ ${refused ? 'refused' : 'not sent'}: ${why}`,
  againAlone: 'Run the command again: it sends the request with the new offset.',
  againOf: (position: number) =>
    `Send it again with the new offset: run the command with --request ${position} instead of --all.`,
  serviceMessage: (msg: string) => `  Message from the service: ${msg}`,
  notBlindly: `  Do not send it again blindly: query the order first (GET /api/v3/order with orderId or origClientOrderId).`,
  truncated: (bytes: number) => `\n… (${bytes} bytes; the rest was not kept)`,
  timings: (connectMs: number, firstByteMs: number, totalMs: number) =>
    `timings: connect ${connectMs} ms · first byte ${firstByteMs} ms · total ${totalMs} ms`,
  budget: (budget: string) => `budget: ${budget}`,
  warning: (warning: string) => `warning: ${warning}`,
};

export const SIGN = {
  help: (maxTimestampMs: number) =>
    `Usage: tradereq sign FILE [--request NAME|INDEX] [--env NAME] [--base-url URL] [--timestamp MS] [--json]

Prints a request of FILE exactly as it would be sent: method and full URL with the final query
string, headers (API key masked), body, then totalParams and signature as comment lines.
Nothing is sent.

  --request NAME|INDEX  the request named by "# @name NAME", or its position (1 is the first);
                        needed when the file holds more than one request
  --env NAME            environment of tradereq.env.json (default: TRADEREQ_ENV, the file's only
                        environment, or "sandbox")
  --base-url URL        use this base URL instead of the environment's
  --timestamp MS        sign with this timestamp (milliseconds, at most ${maxTimestampMs}) instead of now,
                        for reproducible output
  --json                print one JSON object: method, url, query, body, totalParams, signature,
                        timestamp, headers (API key masked), signed, environment, keyProfile
  -h, --help            this help

Keys: TRADEREQ_<PROFILE>_API_KEY and TRADEREQ_<PROFILE>_SECRET_KEY (profile upper-cased, "-" as
"_"), else TRADEREQ_API_KEY and TRADEREQ_SECRET_KEY. The built-in sandbox profile has a demo key
for loopback addresses. The secret key is used for the signature and never printed.

{{NAME.response.PATH}} reads the answer kept by the last \`tradereq send\` of that request (as for send).

Exit codes: 0 printed; 2 bad input (no key, a variable that does not resolve; nothing printed).`,
  takesOneFile: 'sign takes one FILE. See: tradereq sign --help',
};

export const CHECK = {
  help: `Usage: tradereq check PATH... [--env NAME] [--json]
       tradereq check - [--env NAME] [--json]

Reports what the service would reject, before anything is sent, as
FILE:LINE:COLUMN: SEVERITY: MESSAGE. A PATH is a request file or a folder (its
.tradereq files, as for test). A problem that the request's own # @expect code
names is information. - reads one request file from standard input: shown as -,
with the environments of the current folder's tradereq.env.json; its # @data
files are not read (an error).

  --env NAME   environment whose variables resolve {{name}} (default as for sign)
  --json       print one JSON object: {"version": 1, "findings": [...]}, each finding with
               file, line, column, endLine, endColumn (from 1), severity, rule, message
  -h, --help   this help

Exit codes: 0 no error; 1 an error was found; 2 a PATH cannot be read (the others are still
checked) or bad input.`,
  needsPath: 'check needs at least one PATH. See: tradereq check --help',
};

export const ERRORS = {
  help: `Usage: tradereq errors [CODE...] [--json]

Explains the service's error codes (spec §7.2): every meaning, and for the common ones the usual
cause and what to do next. Without CODE, lists every code.

  --json       print an array of objects: code, meanings, cause, action, category
  -h, --help   this help

Exit codes: 0 explained; 2 a CODE that is not a number or not one of the service's.`,
  notACode: (raw: string) => `"${raw}" is not an error code: give numbers such as 700003`,
  notTheServices: (raw: string) =>
    `${raw} is not an error code of the service (spec §7.2). Run tradereq errors to list them all`,
};

export const STATE = {
  help: (stateDir: string) => `Usage: tradereq state [show] [--json]
       tradereq state reset [ORIGIN]

The rate-limit state that every tradereq command and the VS Code extension share: per origin, the
weight used in the last 10 s, a Retry-After wait or ban in force, and the measured clock offset.

  show          each origin's budget, wait or ban (the default)
  reset ORIGIN  forget ORIGIN's counters, wait, ban and damage (e.g. http://127.0.0.1:8780)
  reset         forget everything: every origin, and the damage of a file that cannot be read
  --json        show as one JSON object per origin, one per line
  -h, --help    this help

When the state cannot be read (a truncated file, an entry that does not validate, an origin written
twice), TradeReq sends nothing to the origins concerned until it is reset, so that a ban or a
Retry-After wait is never lifted by accident. Reset only once you know no ban is in force. Reset an
origin too once its clock offset, refused as too large, is set right: the next send measures it again.

The state lives in ${stateDir} (TRADEREQ_STATE_DIR overrides),
beside answers.json: the last answer of each named request that \`tradereq send\` received (listen
keys masked), which send and sign read for {{NAME.response.PATH}} of a request they do not send.

Exit codes: 0 shown or reset; 1 the state could not be written (nothing was reset); 2 bad input.`,
  tooManyArguments: 'too many arguments. See: tradereq state --help',
  unknownAction: (action: string) => `unknown action "${action}": use show or reset. See: tradereq state --help`,
  notAnOrigin: (origin: string) => `"${origin}" is not an origin such as https://api.example.com`,
  notReset: (error: string) => `${error}: nothing was reset`,
  resetOne: (origin: string) => `The rate-limit state of ${origin} was reset.`,
  resetAll: `The rate-limit state was reset: every origin.`,
  unreadable: (path: string, reason: string) =>
    `The rate-limit state in ${path} could not be read (${reason}): nothing is sent anywhere until "tradereq state reset".`,
  empty: (path: string) => `No origin has rate-limit state in ${path}.`,
};

export const CODE = {
  help: (languages: readonly { readonly id: string; readonly label: string }[]) =>
    `Usage: tradereq code FILE [--request NAME|INDEX] --lang LANG [--env NAME] [--base-url URL]
                     [--out FILE] [--force]

Prints a complete program that sends a request of FILE as tradereq send would: the same query
string and body (strict percent-encoding, same order, same placement), the timestamp taken and
the HMAC-SHA256 signature computed when the program runs, with the keys read from environment
variables. The program holds no secret; it prints the status, then the body.

  --lang LANG           the language:
${languages.map((l) => `  ${l.id.padEnd(16)}${l.label}`).join('\n')}
  --request NAME|INDEX  the request named by "# @name NAME", or its position (1 is the first);
                        needed when the file holds more than one request
  --env NAME            environment of tradereq.env.json whose variables and base URL are used
                        (default: TRADEREQ_ENV, the file's only environment, or "sandbox")
  --base-url URL        the base URL written into the program (TRADEREQ_BASE_URL overrides it
                        when the program runs)
  --out FILE            write the program here instead of standard output
  --force               overwrite FILE when it exists
  -h, --help            this help

Keys: the program reads TRADEREQ_<PROFILE>_API_KEY and TRADEREQ_<PROFILE>_SECRET_KEY of the
request's key profile (TRADEREQ_API_KEY and TRADEREQ_SECRET_KEY without one). {{$timestamp}},
{{$uuid}} and {{$clientOrderId}} are made when it runs; {{NAME.response.PATH}} becomes an argument
of the program.

A request that asks before it goes (# @confirm, or an order to an environment with "confirm": true)
becomes a program that asks too: it shows the order and asks y/N in a terminal, and without one
sends only when run with --yes (exit code 4 otherwise, nothing sent).

A WebSocket request whose environment's deployment pushes binary frames (mexc) becomes a program
that subscribes its streams and prints each push decoded (node: npm install ws protobufjs; python:
the class protoc --python_out makes of push.proto, which the program writes with --write-proto);
go and shell are refused, saying what each needs.

Exit codes: 0 the program was printed or written; 2 bad input (the request cannot become a program,
or --out exists without --force).`,
  takesOneFile: 'code takes one FILE. See: tradereq code --help',
  needsLang: (known: readonly string[]) => `code needs --lang: one of ${known.join(', ')}`,
  unknownLang: (known: readonly string[], language: string) =>
    `--lang must be one of ${known.join(', ')}, not "${language}"`,
  cannotBecomeProgram: (error: string) => `this request cannot become a program: ${error}`,
  /** Then what the program needs to run (the core's words). */
  wrote: (path: string, needs: string) => `Wrote ${path}. ${needs}`,
  exists: (path: string) => `${path} exists: choose another --out or add --force`,
  cannotWrite: (path: string, code: string) => `cannot write ${path} (${code})`,
};

export const DOCTOR = {
  help: (
    causeIds: readonly string[],
    v: { network: string },
  ) => `Usage: tradereq doctor [FILE|-] [--key PROFILE] [--code N] [--at TIME] [--json]
                       [--offline] [--proxy URL | --no-proxy] [--cacert FILE]

Explains why the service refused a request your own program sent (an invalid signature 700002,
a timestamp 700003, ...). Give what the program sent, in FILE or on standard input: a cURL
command, a raw HTTP request (request line, headers, blank line, body), a URL and its body, or a
line of your log holding one of them. The doctor recomputes the signature the service expects
(spec §5), and when yours differs, finds the known mistake that reproduces it exactly: an "&"
between query string and body, a body serialised again, another order, lower-case or missing
percent-encoding, a newline signed, the signature signed too, JSON signed but a form sent, a
secret with whitespace, another profile's secret. Then it checks the timestamp against the
server's time when the request was answered (never the time you run the doctor), recvWindow, the
API key header and where the parameters were put. An answer 2xx pasted after the request means
the service accepted it: no signature or timestamp cause is named then.

  --key PROFILE  the key profile to check against: TRADEREQ_<PROFILE>_API_KEY and
                 TRADEREQ_<PROFILE>_SECRET_KEY (profile upper-cased, "-" as "_"). Default: the
                 profile whose API key the request carries, else TRADEREQ_API_KEY and
                 TRADEREQ_SECRET_KEY, else the sandbox's demo key for a loopback URL
  --code N       the error code the service answered, if the text does not hold it
  --at TIME      when the request was answered, by this machine's clock: ISO 8601 with a time of
                 day (2026-11-29T02:17:35.120Z; without Z or an offset, this machine's time zone)
                 or epoch milliseconds; the measured server clock offset is added. Default: the
                 answer's Date header in the text (curl -v prints it as "< Date: ..."); without
                 either, an old timestamp is only said to be possible
  --json         print one JSON object: cause, causes, summary, signed, expected, difference,
                 fix, snippets, checks, codeNote
  --offline      do not measure the server's clock (GET /api/v3/time at the request's origin,
                 unsigned, no key sent); this machine's clock stands in (no offset added to --at)
${v.network}
  -h, --help     this help

Every other profile found in the environment variables (and the sandbox's demo keys) is tried as
"the key of another environment". Secrets are used for the HMAC and never printed.

Cause ids (stable, for scripts): ${causeIds.join(', ')}.

Exit codes: 0 the request is right (cause none); 1 a cause was found (or unknown);
2 bad input (nothing to read, no key to check against).`,
  takesOneFile: 'doctor takes one FILE (or - for standard input). See: tradereq doctor --help',
  badAt: (value: string) =>
    `--at takes when the request was answered, as ISO 8601 with a time of day (2026-11-29T02:17:35Z) or epoch milliseconds, not "${value}"`,
  onTerminal:
    'give a FILE holding what your program sent, or pipe it on standard input (a cURL line, a raw HTTP request, a URL and its body)',
  stdinTooLong: 'the text on standard input is too long: give only the request your program sent',
  cannotRead: (path: string, code: string | undefined) => `cannot read ${path}: ${code ?? 'error'}`,
  tooLarge: (path: string, bytes: number) =>
    `${path} is too large (${bytes} bytes): give only the request your program sent`,
  noKeyForProfile: (profile: string, prefix: string) =>
    `no key for profile "${profile}": set ${prefix}API_KEY and ${prefix}SECRET_KEY`,
  noKey:
    'no key to check against: set TRADEREQ_<PROFILE>_API_KEY and TRADEREQ_<PROFILE>_SECRET_KEY and pass --key PROFILE (or TRADEREQ_API_KEY and TRADEREQ_SECRET_KEY)',
};

export const SANDBOX = {
  help: (v: { port: number; maxPort: number; maxNames: number; validDays: number; deployments: readonly string[] }) =>
    `Usage: tradereq sandbox [--port N] [--host H] [--deployment ID] [--ban-scale F] [--connection-scale F]
                        [--json] [--no-limits] [--tls [--tls-name NAME]... [--tls-ca FILE]]

Runs the sandbox exchange: a local server that answers like the service (orders, balances, signing,
timing, rate limits and bans of the spec), with public demo keys, so any request can be tried with
no account. Runs until Ctrl+C (SIGINT) or SIGTERM.

  --port N        port to listen on (default ${v.port}, at most ${v.maxPort}; 0 picks a free one)
  --host H        address to listen on (default 127.0.0.1, loopback only)
  --deployment ID play this deployment (${v.deployments.join(', ')}; default ${v.deployments[0]}): its key header,
                  its endpoints (those the sandbox does not play answer 501), its listen keys, its
                  stream names and pushes (mexc: .pb channels, binary Protocol Buffers pushes) and
                  its connection rules (mexc: closed after 60 s with no data once subscribed)
  --ban-scale F   multiply the IP ban durations (2 minutes up to 3 days) by F, e.g. 0.01
  --connection-scale F
                  multiply the WebSocket idle closes and the 24-hour lifetime by F, e.g. 0.001
  --json          print one JSON line first: {"baseUrl", "wsUrl", "deployment", "apiKeyHeader",
                  "keys": [{name, apiKey, secretKey, permissions}]}
                  (with --tls, "caFile" too)
  --no-limits     switch rate limits and bans off (for benchmarks)
  --tls           serve HTTPS and WSS with a certificate made at start, signed by a CA of its own
                  (valid ${v.validDays} days; the private keys stay in memory); the CA certificate is
                  written to a file the sandbox names (removed when it stops)
  --tls-name NAME a DNS name or an IP address the certificate names too, besides localhost,
                  127.0.0.1, ::1 and --host (repeatable, at most ${v.maxNames}; e.g. a host name only a proxy reaches)
  --tls-ca FILE   write the CA certificate to FILE instead (replaced at each start, left when it stops)
  -h, --help      this help

Demo keys: "trade" can read and trade; "readonly" cannot trade (orders answer 700007); "ipbound" is
bound to an IP that is not loopback (signed requests answer 700006).

WebSocket: ws://HOST:PORT/ws on the same port (wss:// with --tls). Public streams (deals,
limit.depth, bookTicker, kline) are fed by the sandbox's own trades; private ones (orders, deals,
account) need a listen key from POST /api/v3/userDataStream, then ws://HOST:PORT/ws?listenKey=KEY. Limits of §8: at most
30 streams per connection (the 31st is refused); more than 100 messages in one second closes the
connection (1008); an IP closed so 3 times in 10 minutes is answered 418 with Retry-After (bans
× --ban-scale). A connection with no subscription for 30 s, or open for 24 h, is closed (those
times × --connection-scale, on the server clock: POST /_sandbox/clock moves them); one that
leaves over 256 KiB of pushes unread is closed (1008).

Control surface, loopback clients only: POST /_sandbox/reset, POST /_sandbox/fault
{"status": 503, "count": 1, "path": "/api/v3/order"}, POST /_sandbox/clock {"offsetMs": N},
POST /_sandbox/latency {"ms": N}, GET /_sandbox/requests; WebSocket: GET /_sandbox/ws (state),
POST /_sandbox/ws/drop (every connection dropped, 1006), POST /_sandbox/ws/pause and
/_sandbox/ws/resume (pushes stop and go), POST /_sandbox/ws/malformed (one invalid JSON frame to
every connection). GET /_sandbox/ lists them.

Exit codes: 0 stopped by Ctrl+C or SIGTERM; 1 the port cannot be listened on (taken, or not
allowed), or the CA certificate cannot be written; 2 bad input.`,
  host: (value: string) => `--host takes an IP address or a host name, not "${value}"`,
  banScale: (value: string) => `--ban-scale takes a number above 0 such as 0.01, not "${value}"`,
  connectionScale: (value: string) => `--connection-scale takes a number above 0 such as 0.001, not "${value}"`,
  deployment: (value: string, ids: readonly string[]) => `--deployment takes one of ${ids.join(', ')}, not "${value}"`,
  /** What the sandbox prints once it listens; `limits` undefined when they are off. */
  started: (v: {
    baseUrl: string;
    wsUrl: string;
    /** The deployment played, and the header its keys go in. */
    deployment: { title: string; apiKeyHeader: string };
    keys: readonly { name: string; description: string; apiKey: string; secretKey: string }[];
    limits?: { weight: number; seconds: number; banScale: number };
    /** With --tls: SANDBOX_TLS.started's lines. */
    tls?: readonly string[];
  }) =>
    [
      `Sandbox exchange listening on ${v.baseUrl}`,
      `WebSocket streams on ${v.wsUrl} (private streams: ?listenKey= from POST /api/v3/userDataStream)`,
      `Playing ${v.deployment.title} (--deployment to choose another)`,
      ...(v.tls ?? []),
      '',
      `Demo keys (public, for the sandbox only; header ${v.deployment.apiKeyHeader}):`,
      ...v.keys.flatMap((k) => [
        `  ${k.name.padEnd(9)} ${k.description}`,
        `            apiKey    ${k.apiKey}`,
        `            secretKey ${k.secretKey}`,
      ]),
      '',
      v.limits
        ? `Rate limits: ${v.limits.weight} weight per ${v.limits.seconds} s per IP (unsigned) and per account (signed); bans ×${v.limits.banScale}.`
        : 'Rate limits: off.',
      'Control (loopback only): POST /_sandbox/reset, /_sandbox/fault, /_sandbox/clock, /_sandbox/latency; GET /_sandbox/requests.',
      'WebSocket control: GET /_sandbox/ws; POST /_sandbox/ws/drop, /_sandbox/ws/pause, /_sandbox/ws/resume, /_sandbox/ws/malformed.',
      'Stop with Ctrl+C.',
    ].join('\n'),
  portInUse: (port: number, host: string) =>
    `port ${port} on ${host} is already in use (another sandbox?); choose another with --port N, or --port 0 for a free one`,
  portNotAllowed: (port: number, host: string) =>
    `not allowed to listen on port ${port} on ${host}; choose another with --port N, or --port 0 for a free one`,
  cannotListen: (host: string, code: string) =>
    `cannot listen on host ${host} (${code}); use an address of this machine, such as the default 127.0.0.1`,
  reachable: (host: string) =>
    `listening on ${host}: other machines can reach the sandbox, whose demo keys are public (the /_sandbox/ control surface still answers loopback only)`,
};

export const IMPORT = {
  help: (v: { maxInputMiB: number; maxRequests: number; maxParams: number; maxHeaders: number }) =>
    `Usage: tradereq import curl [--base-url URL] [--key PROFILE] [-- CURL ARGUMENTS...]
       tradereq import postman FILE [--environment ENVFILE] --out DIR [--force]
       tradereq import http FILE [--out FILE] [--force]

Turns requests written for other tools into .tradereq files. What could not be carried over as
it was (scripts, settings, secrets, parameters left out) is listed on standard error; secrets are
never copied: the import says which key profile to create instead.

  curl      a cURL command, after -- or on standard input, printed as a .tradereq request.
            signature and timestamp are dropped (TradeReq adds its own), the API key header
            becomes the environment's key profile.
    --base-url URL   write the path when the URL is under this base URL
    --key PROFILE    the key profile to name (default: from the host, e.g. mexc for api.mexc.com)
  postman   a Postman collection v2.1: one file per folder in DIR, and tradereq.env.json from
            the collection's base URL and the environment's variables (never its secrets).
            URLs under the base URL become paths; pm.test checks of the status and of JSON
            fields become # @expect lines.
    --environment ENVFILE   a Postman environment export
    --out DIR               the folder to write into (created when missing)
  http      a .http / .rest file (REST Client, httpYac, JetBrains HTTP client); WS and
            WEBSOCKET requests become WebSocket requests. URLs under the base URL (or wsUrl)
            of an environment of the tradereq.env.json the written file uses become paths.
    --out FILE              write the .tradereq file here instead of standard output
  --force   overwrite existing files
  -h, --help   this help

Input is bounded to ${v.maxInputMiB} MiB and ${v.maxRequests} requests, a request to ${v.maxParams} parameters and ${v.maxHeaders} headers.
Bad input (not JSON, an unknown collection version, a cURL command that does not parse, a
request past a bound) prints one line and exits 2.

Exit codes: 0 imported (what was left out is listed on standard error); 2 bad input or a file that
exists (nothing written).`,
  needsKind: 'import needs what to import: curl, postman or http. See: tradereq import --help',
  unknownKind: (kind: string) => `cannot import "${kind}": use curl, postman or http. See: tradereq import --help`,
  curlAfterDashes: 'give the cURL command after -- (tradereq import curl -- curl ...) or on standard input',
  baseUrl: (value: string) =>
    `--base-url must be an http:// or https:// URL such as https://api.example.com, not "${value}"`,
  curlOnTerminal: 'give the cURL command after -- (tradereq import curl -- curl ...) or pipe it on standard input',
  curlTooLong: 'the cURL command on standard input is too long to import',
  importedCurl: 'Imported 1 request from the cURL command.',
  tooLarge: (path: string, bytes: number) => `${path} is too large to import (${bytes} bytes)`,
  postmanTakesOneFile: 'import postman takes one collection FILE. See: tradereq import --help',
  postmanNeedsOut: 'import postman needs --out DIR, the folder to write the files into',
  /** The collection and its environment, as a failure names them. */
  withEnvironment: (collection: string, environment: string) => `${collection} with ${environment}`,
  importedInto: (count: number, folder: string, files: readonly string[]) =>
    `Imported ${count} request${count === 1 ? '' : 's'} into ${folder}: ${files.join(', ')}`,
  httpTakesOneFile: 'import http takes one .http or .rest FILE. See: tradereq import --help',
  importedFrom: (count: number, path: string) => `Imported ${count} request${count === 1 ? '' : 's'} from ${path}.`,
  importedIntoFile: (count: number, path: string) => `Imported ${count} request${count === 1 ? '' : 's'} into ${path}.`,
  exists: (path: string, others: number) =>
    `${path} exists: choose another output or add --force to overwrite${others > 0 ? ` (and ${others} more)` : ''}`,
  cannotWrite: (folder: string, code: string) => `cannot write into ${folder} (${code})`,
  /** What an import could not carry over as it was, after the headline. */
  notCarriedOver: (notes: readonly string[]) => [
    `Not carried over as it was (${notes.length}):`,
    ...notes.map((n) => `  - ${n}`),
  ],
};

export const LISTEN = {
  help: (v: {
    maxPushes: number;
    maxSeconds: number;
    connectTimeoutMs: number;
    replyTimeoutMs: number;
    maxTimeoutMs: number;
    jsonDepth: number;
    pushTextChars: number;
    reconnectMaxSeconds: number;
    reconnectAttempts: number;
    network: string;
  }) => `Usage: tradereq listen FILE [--request NAME|INDEX] [--env NAME] [--count N] [--duration S]
                       [--connect-timeout MS] [--reply-timeout MS] [--no-reconnect] [--json]

Connects a WebSocket request of FILE (WS /ws) to the environment's wsUrl, subscribes its
[subscribe] streams, sends its [message] sections, prints each push as it comes and checks its
# @expect message lines at the end. With # @listenKey it first obtains a listen key (signed
POST /api/v3/userDataStream), keeps it alive and closes it at the end; the key is shown masked.

  --request NAME|INDEX  the request named by "# @name NAME", or its position (1 is the first)
  --env NAME            environment of tradereq.env.json (default as for send)
  --count N             stop after N pushes (at most ${v.maxPushes})
  --duration S          stop after S seconds (at most ${v.maxSeconds}, a connection's lifetime)
                        (without either: the request's # @listen, else until Ctrl-C or SIGTERM)
  --connect-timeout MS  time to wait for the WebSocket to open (default ${v.connectTimeoutMs}, at most ${v.maxTimeoutMs})
  --reply-timeout MS    time to wait for a reply from the server (default ${v.replyTimeoutMs}, at most ${v.maxTimeoutMs}):
                        a subscription unanswered that long is given up; a server silent that
                        long is dropped (exit 1)
  --no-reconnect        end at the first close of the server (lifetime, idle, a drop) instead of
                        reconnecting
  --json                one JSON object a line: connected, subscription, push, reply, error, gap, end
${v.network}
  -h, --help            this help

Each push is printed as TIME STREAM DATA (control characters escaped), or with --json as
{"type":"push","stream",...,"push":{"c","s","t","d"}}. A push nested more than
${v.jsonDepth} levels deep is printed as the text it came as, clipped to
${v.pushTextChars} characters (with --json, "push" is that text).
Where the environment's deployment sends Protocol Buffers ("deployment": "mexc"), each binary push
is decoded and printed as TIME CHANNEL {"BODY": {...}}, or with --json as {"type":"push",...,
"push":{"channel","symbol","symbolId","createTime","sendTime","BODY":{...}}} (docs/websocket.md);
a frame that does not decode is reported on standard error and counted at the end, never fatal.

A connection the server closes (its 24 h lifetime, an idle close, a drop) is opened again after a
wait that doubles from 1 s up to ${v.reconnectMaxSeconds} s (jittered), through the same rate-limit gate, and its streams
subscribed again with the same listen key; each gap is printed, with the pushes it may have cost
(an estimate from the rate before it), and listed at the end. A 418 ban, a §8 cut (1008), a refused
key that a new one does not cure, or ${v.reconnectAttempts} failed attempts in a row end the run instead.

However the run ends (its bound, the server, Ctrl-C or SIGTERM, an unexpected failure), the
connection and the listen key it obtained are closed before the exit.

Exit codes: 0 the run reached its bound and every expectation passed; 1 an expectation failed, a
subscription or message was refused, the connection failed or was closed by the server (its
close code and reason are printed), or an unexpected failure ended the run; 2 bad input (nothing
sent); 4 refused by the gate (a ban or Retry-After wait in the rate-limit state, a key not bound
to the origin of the listen key).`,
  takesOneFile: 'listen takes one FILE. See: tradereq listen --help',
  notWebSocket: (location: string, method: string, target: string) =>
    `${location}: ${method} ${target} is not a WebSocket request (WS /ws): send it with tradereq send`,
  interruptedBeforeOpen: 'interrupted before the connection opened',
  connected: (url: string, listenKey: string | undefined) =>
    `→ connected to ${url}${listenKey ? ` with listen key ${listenKey}` : ''}`,
  subscribed: (stream: string) => `→ subscribed ${stream}`,
  notSubscribed: (stream: string, code: number | undefined, msg: string) =>
    `✘ not subscribed ${stream}: ${code !== undefined ? `code ${code}: ` : ''}${msg}`,
  reply: (json: string) => `← reply ${json}`,
  frameDropped: (count: number, why: string, sample: string | undefined) =>
    `a frame was dropped (${count} so far): ${why}${sample !== undefined ? `: ${sample}` : ''}`,
  /** At the end of a run: the frames dropped, by why (the connection's counts). */
  framesDropped: (
    total: number,
    n: { undecodable: number; textPush: number; binary: number; notJson: number; unknown: number; tooLarge: number },
  ) => {
    const why: readonly (readonly [number, string])[] = [
      [n.undecodable, 'not a Protocol Buffers push'],
      [n.textPush, 'a JSON push where Protocol Buffers are sent'],
      [n.binary, 'binary where JSON text is sent'],
      [n.notJson, 'not JSON'],
      [n.unknown, 'not a message the catalog knows'],
      [n.tooLarge, "over the client's cap"],
    ];
    const parts = why.filter(([count]) => count > 0).map(([count, what]) => `${count} ${what}`);
    return `${total} frame${total === 1 ? ' was' : 's were'} dropped: ${parts.join(', ')}`;
  },
  unexpected: (message: string) =>
    `unexpected failure: ${message}; the run ends, closing the connection and any listen key it holds`,
  notConnected: (message: string) => `✘ not connected: ${message}`,
  closedByServer: (code: number | undefined, reason: string | undefined, message: string) =>
    `✘ the connection was closed (code ${code ?? 'none'}${reason ? `, reason "${reason}"` : ''}): ${message}`,
  /** The end of a run, then why it ended (one of the endings below, or nothing when the server closed it). */
  closedAfter: (pushes: number, seconds: string, ending: string) =>
    `→ closed after ${pushes} push${pushes === 1 ? '' : 'es'} in ${seconds} s${ending}`,
  endedByCount: (count: number) => `: the count of ${count} reached`,
  endedByDuration: (seconds: number) => `: the ${seconds} s passed`,
  endedBySignal: ': interrupted',
  endedByFailure: ': an unexpected failure',
  gapStarted: (time: string, code: number | undefined, reason: string) =>
    `connection lost at ${time} (code ${code ?? 'none'}): ${reason}; reconnecting (--no-reconnect to stop at the first close)`,
  gapEnded: (time: string, seconds: string, attempts: number, estimate: string) =>
    `→ reconnected at ${time} after ${seconds} s (${attempts} attempt${attempts === 1 ? '' : 's'}), streams subscribed again; ${estimate}`,
  missedEstimate: (missed: number, rate: string) =>
    `about ${missed} push${missed === 1 ? '' : 'es'} may have been missed (an estimate: ${rate} a second before the gap)`,
  gapsSummary: (count: number, seconds: string, missed: number) =>
    `→ ${count} gap${count === 1 ? '' : 's'} without a connection, ${seconds} s in all; about ${missed} push${missed === 1 ? '' : 'es'} may have been missed (an estimate)`,
  gapLine: (time: string, seconds: string, code: number | undefined, reason: string, estimate: string) =>
    `gap at ${time}, ${seconds} s, code ${code ?? 'none'}: ${reason}; ${estimate}`,
};

/** `tradereq test` (test.ts) and where its files and reports are (test-files.ts). */
export const TEST = {
  help: (v: { pace: number; maxPaceWaitSeconds: number; maxTimeoutMs: number; network: string }) =>
    `Usage: tradereq test [PATH...] [--sandbox] [--env NAME] [--grep PATTERN]
                     [--reporter pretty|junit|tap|json|html[:FILE]]... [--output FILE]...
                     [--update-snapshots]
                     [--pace [FRACTION]] [--bail]

Runs every request of every .tradereq file of PATH (files or folders, default the current folder;
- reads one request file from standard input, with the current folder's environments and no
# @data file),
as tests: files sorted, one after another, and the requests of a file in order, so that
{{NAME.response.PATH}} reads the answers of requests run before it. A request passes when its
outcome is ok, or rejected exactly as its # @expect lines say.

  --sandbox             start the sandbox exchange on a free loopback port for the run and send
                        every request there, signed with its demo key: no account, no secret.
                        A request to any other origin is refused; nothing asks for confirmation
  --env NAME            environment of tradereq.env.json (as for send; default TRADEREQ_ENV, the
                        file's only environment, or "sandbox"); with --sandbox, whose variables
                        to use (default the file's "sandbox" environment)
  --grep PATTERN        only the requests whose title or # @name matches this regular expression
                        (case-insensitive), and the requests whose answers they read (said on
                        standard error); an order run only for its answer asks for confirmation
  --reporter NAME       pretty (the default), junit, tap, json or html (one page, readable offline,
                        no script); several --reporter for several
                        reports; NAME:FILE writes that one to FILE (never over a folder, a
                        .tradereq or tradereq.env.json file: refused before anything is sent)
  --output FILE         write the report of the --reporter before it to FILE (one report at most
                        goes to standard output; the others need a file)
  --update-snapshots    write the answers of the requests run to their snapshots (# @expect
                        snapshot: __snapshots__/FILE.snap.json beside each file), masked, where
                        they differ or are missing; without it a missing or different snapshot fails
  --pace [FRACTION]     space the requests by their weights: before each one, wait until it fits
                        under FRACTION of its rate-limit counter (500 weight per 10 s, IP and
                        account apart), counting what this machine sent and what the service's
                        used-weight header reports (default ${v.pace}; more than 0, at most 1). After a
                        429 the run waits its Retry-After and goes on (the 429'd request is
                        reported rejected, never sent again); a 418 (ban) stops the run; a wait
                        over ${v.maxPaceWaitSeconds} s stops it too. The summary says how long pacing waited
  --bail                stop the run at the first 429 (the rest is not run, and says why)
  --yes                 confirm requests that ask for it without a prompt: trades signed with your
                        own key (unless TRADEREQ_<PROFILE>_CONFIRM=off), # @confirm, "confirm": true
  --no-check            run a request even when check finds errors in it; without it such a
                        request is not sent and fails (bad input, exit 2) with the findings
  --no-clock-sync, --timeout MS, --connect-timeout MS   as for send (MS at most ${v.maxTimeoutMs})
${v.network}
  -h, --help            this help

A request with # @data FILE (CSV or JSON, beside the request file) runs once per row, each row's
columns as variables, each row a test case: "buy [row 3: symbol=ETHUSDT]".

JUnit XML has one testsuite per file and one testcase per request or data row (time; failure with
the expectation and what came back; system-out with the request, API key masked, and the answer).
A refusal before sending (rate-limit budget, Retry-After or ban, a key not bound to the origin, no
confirmation) stops the run of its file. When nothing answers where a request goes (connection
refused), it fails once, and the rest of its file and later requests there are not run.
No secret and no full API key is written to a report.

Exit codes as for send: 0 every request passed; 1 a request failed (rejected, nothing answered, or
an expectation not met); 2 bad input; 3 an outcome is unknown (it may have succeeded); 4 refused.`,
  noRequest: (grep: string | undefined, files: number) =>
    `no request${grep !== undefined ? ` matches --grep ${grep}` : ''} in ${files} file(s)`,
  notARegExp: (value: string) => `--grep takes a regular expression, and "${value}" is not one`,
  pace: (value: string, pace: number) =>
    `--pace takes a fraction of each rate-limit budget, more than 0 and at most 1 (${pace} is ${pace * 100} %), not "${value}"`,
  alsoRuns: (title: string, file: string, why: string) => `--grep: also runs "${title}" of ${file}: ${why}`,
  /** The label of a file that cannot run at all, in place of its requests. */
  wholeFile: 'the file',
  howToUpdate: 'run tradereq test with --update-snapshots',
  notSaved: (error: string) => `${error}.`,
  snapshotsWritten: (file: string, created: number, changed: number) =>
    `snapshots written to ${file}: ${created} new, ${changed} updated.`,
  nothingAnswers: (origin: string) =>
    `not sent: nothing answers at ${origin}: start it with \`tradereq sandbox\` or run \`tradereq test --sandbox\``,
  notRun: (why: string) => `not run: ${why}`,
  /** A case whose request check finds errors in (REQUESTS.checkErrors), not sent. */
  notSent: (why: string) => `not sent: ${why}`,
  noSnapshotsFromStdin:
    '--update-snapshots needs named request files: a file read from standard input (-) has no name to keep its snapshots under',
  /** Once after an unpaced run that the rate-limit gate cut short: what --pace does about it. */
  gateRefused: (refused: number, notRun: number) =>
    `the rate-limit gate refused ${refused === 1 ? 'a request' : `${refused} requests`}${notRun > 0 ? ` (${notRun} not run after ${refused === 1 ? 'it' : 'them'})` : ''}: run with --pace [FRACTION] to space the requests so that each fits under its budget, waiting instead of being refused. See: tradereq test --help`,
  reportNotWritten: (reporter: string, why: string) => `the ${reporter} report could not be written to ${why}.`,
  reporter: (names: readonly string[], value: string) =>
    `--reporter takes ${names.join(', ')} (NAME or NAME:FILE), not "${value}"`,
  outputFollows:
    '--output FILE follows the --reporter whose report it writes, e.g. --reporter junit --output report.xml',
  oneToStdout: 'only one report can go to standard output: give the others --output FILE',
  reportPath: (reporter: string, problem: string) =>
    `the ${reporter} report cannot be written: ${problem}. Nothing was sent: give it another path.`,
  linkToNothing: (file: string) => `${file} is a link to nothing (the report would be written through it)`,
  isFolder: (file: string) => `${file} is a folder`,
  isRequestFile: (file: string) => `${file} is a request file`,
  isEnvFile: (file: string) => `${file} is an environment file`,
  givenTwice: (file: string) => `${file} is given twice`,
  fileNotFolder: (path: string) => `${path} is a file, not a folder`,
  notWritable: (path: string, code: string | undefined) => `${path} cannot be written (${code ?? 'no access'})`,
};

/** `tradereq completion` (completion.ts). */
export const COMPLETION = {
  help: `Usage: tradereq completion bash|zsh|fish

Prints a completion script for the shell: commands, their options and sub-commands, the request
names of a file after --request, and the environments of tradereq.env.json after --env (asked
of tradereq on each Tab; names with other characters than letters, digits and ._:- are not offered).

  bash   source <(tradereq completion bash)            (in ~/.bashrc)
  zsh    source <(tradereq completion zsh)             (in ~/.zshrc; uses bashcompinit)
  fish   tradereq completion fish | source             (in ~/.config/fish/config.fish)

Written to a file instead, the script is run again after an update of tradereq.

  -h, --help   this help

Exit codes: 0 the script was printed; 2 bad input (no shell, or one it does not know).`,
  shell: (shells: readonly string[]) =>
    `completion takes one shell: ${shells.join(', ')}. See: tradereq completion --help`,
  /**
   * The bash script (zsh runs it through bashcompinit). Only words of the commands' help reach it
   * as code; names from files arrive on each Tab, one a line, and are added as words, never evaluated.
   */
  bash: (zsh: boolean, commands: readonly CompletionCommand[]) =>
    [
      ...(zsh
        ? [
            '#compdef tradereq',
            'if ! (( $+functions[compdef] )); then autoload -U +X compinit && compinit; fi',
            'autoload -U +X bashcompinit && bashcompinit',
          ]
        : []),
      `# tradereq completion (${zsh ? 'zsh' : 'bash'}): source <(tradereq completion ${zsh ? 'zsh' : 'bash'})`,
      '_tradereq_add() { local cur="$1" w; shift; for w in "$@"; do [[ $w == "$cur"* ]] && COMPREPLY+=("$w"); done; }',
      '_tradereq_names() { local w; while IFS= read -r w; do [[ $w == "$cur"* ]] && COMPREPLY+=("$w"); done < <(tradereq __complete "$1" "$2" 2>/dev/null); }',
      '_tradereq_files() { local w; while IFS= read -r w; do COMPREPLY+=("$w"); done < <(compgen -f -- "$cur"); }',
      '_tradereq() {',
      '  local cur="${COMP_WORDS[COMP_CWORD]}" prev="" cmd="${COMP_WORDS[1]}" file="" opts="" subs="" values="" i',
      '  COMPREPLY=()',
      // zsh splits an unquoted $opts into words only when asked.
      ...(zsh ? ['  setopt localoptions shwordsplit'] : []),
      '  ((COMP_CWORD > 0)) && prev="${COMP_WORDS[COMP_CWORD-1]}"',
      `  if ((COMP_CWORD == 1)); then _tradereq_add "$cur" ${commands.map((c) => c.name).join(' ')}; return; fi`,
      '  for ((i = 2; i < ${#COMP_WORDS[@]}; i++)); do [[ ${COMP_WORDS[i]} == *.tradereq ]] && { file="${COMP_WORDS[i]}"; break; }; done',
      '  case "$cmd" in',
      ...commands.map(
        (c) =>
          `    ${c.name}) opts="${c.options.join(' ')}"; subs="${c.subcommands.join(' ')}"; values="|${c.values.join('|')}|" ;;`,
      ),
      '    *) return ;;',
      '  esac',
      '  case "$prev" in',
      '    --request) _tradereq_names requests "$file"; return ;;',
      '    --env) _tradereq_names envs "$file"; return ;;',
      '  esac',
      '  if [[ $values == *"|$prev|"* ]]; then _tradereq_files; return; fi',
      '  if [[ $cur == -* ]]; then _tradereq_add "$cur" $opts; return; fi',
      '  if ((COMP_CWORD == 2)) && [[ -n $subs ]]; then _tradereq_add "$cur" $subs; return; fi',
      '  _tradereq_files',
      '}',
      'complete -o filenames -F _tradereq tradereq',
    ].join('\n'),
  /** The fish script: one `complete` line per command, option and sub-command; names through command substitution, one a line. */
  fish: (commands: readonly CompletionCommand[]) =>
    [
      '# tradereq completion (fish): tradereq completion fish | source',
      'function __tradereq_file; for w in (commandline -opc); if string match -q -- "*.tradereq" $w; echo $w; return; end; end; end',
      'complete -c tradereq -f',
      `complete -c tradereq -n __fish_use_subcommand -a "${commands.map((c) => c.name).join(' ')}"`,
      ...commands.flatMap((c) => {
        const when = `complete -c tradereq -n "__fish_seen_subcommand_from ${c.name}"`;
        const names = (kind: string): string => `-x -a "(tradereq __complete ${kind} (__tradereq_file))"`;
        const option = (o: string): string =>
          o === '--request' ? names('requests') : o === '--env' ? names('envs') : c.values.includes(o) ? '-r -F' : '';
        return [
          ...(c.subcommands.length > 0 ? [`${when} -a "${c.subcommands.join(' ')}"`] : []),
          `${when} -F`,
          ...c.options.map((o) => `${when} -l ${o.slice(2)} ${option(o)}`.trimEnd()),
        ];
      }),
    ].join('\n'),
};

export const INIT = {
  help: (v: {
    envFile: string;
    requestFiles: readonly string[];
    deployments: readonly string[];
  }) => `Usage: tradereq init [DIR] [--deployment ${v.deployments.join('|')}] [--force]

Writes a starter into DIR (default the current folder; made when missing): ${v.envFile} with
the environments "sandbox" (the sandbox exchange on loopback, with its demo key) and "live" (asks
before every order), and the request files
${v.requestFiles.join(', ')}.
They hold no key and no secret, and pass tradereq test --sandbox as written.

  --deployment ID  the deployment the project is for (default ${v.deployments[0]}): with mexc, both
                   environments name "deployment": "mexc" (live at its own address, the sandbox
                   playing it) and the stream file subscribes its .pb channels
  --force          overwrite those files where DIR has them (DIR's other files are never touched)
  -h, --help       this help

Without --force nothing is written when any of those files exists. A folder or a link in the
place of one of them is never written over, even with --force.

Exit codes: 0 the starter was written; 2 bad input: a file exists (nothing written), DIR is not a
folder, or a file could not be written (the message names those written before it).`,
  oneFolder: 'init takes one DIR at most. See: tradereq init --help',
  unknownDeployment: (given: string, known: readonly string[]) =>
    `--deployment ${given} is not a deployment TradeReq knows: ${known.join(', ')}. See: tradereq init --help`,
  starterMissing: (path: string, code: string) =>
    `the starter is missing from this installation (${path}: ${code}): reinstall tradereq`,
  notAFolder: (dir: string) => `${dir} is not a folder: name a folder (it is made when missing)`,
  inTheWay: (path: string, what: 'folder' | 'link' | 'other') =>
    `${path} is ${what === 'folder' ? 'a folder' : what === 'link' ? 'a link' : 'not a plain file'}: nothing was written (the starter writes plain files only, never through a link). Move it, or name another folder: tradereq init DIR`,
  exists: (path: string, others: number) =>
    `${path} exists${others > 0 ? ` (and ${others} more of the starter's files)` : ''}: nothing was written. Name another folder (tradereq init DIR), or add --force to overwrite the starter's files`,
  cannotWrite: (path: string, code: string, written: readonly string[]) =>
    `cannot write ${path} (${code})${written.length > 0 ? `; written before it: ${written.join(', ')}` : '; nothing was written'}`,
  /** What was written and the next commands; `cd` the folder to go to (quoted for a shell) unless it is the current one. */
  summary: (v: {
    folder: string;
    files: readonly { readonly name: string; readonly shows: string }[];
    cd: string | undefined;
    ownKey: readonly string[];
    deployment: string;
  }) => {
    const width = Math.max(...v.files.map((f) => f.name.length)) + 2;
    const step = (command: string, what: string): string => `  ${command.padEnd(34)}${what}`;
    return [
      `Wrote the starter into ${v.folder}:`,
      ...v.files.map((f) => `  ${f.name.padEnd(width)}${f.shows}`),
      '',
      'Next:',
      ...(v.cd !== undefined ? [`  cd ${v.cd}`] : []),
      step('tradereq test --sandbox', 'every request, against a sandbox of its own: no account, no secret'),
      v.deployment === 'spec'
        ? step('tradereq sandbox', 'the sandbox on loopback for send and listen; in another terminal:')
        : step(`tradereq sandbox --deployment ${v.deployment}`, 'the sandbox playing it, for send and listen; then:'),
      step('tradereq listen stream.tradereq', 'its best bid and ask'),
      ...(v.ownKey.length > 0 ? ['', ...v.ownKey] : []),
    ].join('\n');
  },
  /** How to use one's own key with the environment that asks before orders. */
  ownKey: (v: {
    environment: string;
    envFile: string;
    baseUrl: string;
    prefix: string;
    profile: string;
    deployment?: string;
  }) => [
    `Your own key, for the "${v.environment}" environment (docs/guide.md, "Keys"):`,
    v.deployment !== undefined
      ? `  1. its address is the deployment ${v.deployment}'s own (${v.baseUrl}): nothing to set in ${v.envFile}`
      : `  1. set its baseUrl in ${v.envFile} to the service's address (now ${v.baseUrl})`,
    `  2. set ${v.prefix}API_KEY, ${v.prefix}SECRET_KEY and ${v.prefix}ORIGINS=<that address>`,
    `     (in VS Code: TradeReq: Add API Key, profile "${v.profile}")`,
    `     orders signed with it ask first, whatever a repository's files say; where nobody can answer,`,
    `     pass --yes, or set ${v.prefix}CONFIRM=off where you keep the key`,
    `  3. tradereq sign orders.tradereq --env ${v.environment} --request buy   (the signed order; nothing is sent)`,
  ],
};

/** The network options of send, test, listen and doctor (cli/network.ts). */
export const NETWORK = {
  help: `  --proxy URL           send through this proxy (http://[USER:PASSWORD@]HOST:PORT), over
                        HTTPS_PROXY, HTTP_PROXY and ALL_PROXY; NO_PROXY still applies
  --no-proxy            go direct, whatever the proxy variables say
  --cacert FILE         trust the certificates (PEM) of FILE beside Node's own and
                        NODE_EXTRA_CA_CERTS (a company CA)`,
  bothProxyFlags: '--proxy and --no-proxy say opposite things: give one of them',
  badProxy: (why: string) => `--proxy: ${why}`,
  cacert: (problem: string) => `--cacert: ${problem}`,
  noCertificate: (file: string) => `--cacert: ${file} holds no certificate (-----BEGIN CERTIFICATE-----)`,
};

/** `tradereq sandbox --tls`: HTTPS and WSS with a certificate made at start (docs/sandbox.md, "HTTPS and WSS"). */
export const SANDBOX_TLS = {
  needsTls: (option: string) => `${option} needs --tls`,
  name: (value: string) =>
    `--tls-name takes a DNS name (letters, digits, hyphens and dots) or an IP address, not "${value}"`,
  tooManyNames: (count: number, max: number) => `--tls-name is given ${count} times; at most ${max} names`,
  host: (value: string) =>
    `--tls cannot name the host "${value}" in its certificate; listen on a DNS name or an IP address without a zone`,
  /** The banner's lines under the URLs. */
  started: (v: { names: readonly string[]; validUntil: string; caFile: string; removed: boolean }) => [
    `TLS: the certificate names ${v.names.join(', ')}; it and its CA, made at this start, are valid until ${v.validUntil} (their private keys are in memory only).`,
    `CA certificate: ${v.caFile}${v.removed ? ' (removed when the sandbox stops)' : ''}`,
    `  trust it: NODE_EXTRA_CA_CERTS=${v.caFile}, or curl --cacert ${v.caFile}`,
  ],
  caNotWritten: (file: string, why: string) =>
    `cannot write the CA certificate to ${file} (${why}); choose a writable file with --tls-ca FILE`,
};
