/**
 * TradeReq's own bounds on what comes from outside (request files, tradereq.env.json, server
 * answers, the state file). Files and answers are hostile: each bound keeps the time and memory
 * spent on one of them small, and what lies past it gets one clear message. The service's own
 * limits are in catalog/limits.ts.
 */

const KiB = 1024;
const MiB = 1024 * KiB;

/** Sends kept in a workspace's history (and listed in the panel). */
export const HISTORY_LIMIT = 50;

export const BOUNDS = {
  /** A .tradereq file longer than this (in characters) is not read: split it. */
  fileChars: 4 * MiB,
  /** Requests read from one file; the rest is reported once. */
  requestsPerFile: 20_000,
  /** Diagnostics reported for one file; the rest are counted in one last message. */
  diagnosticsPerFile: 1_000,
  /** A file variable's value after its {{variables}} are substituted. */
  variableChars: 64 * KiB,
  /** Variables that refer to variables that refer to variables…: a chain deeper than this is refused. */
  variableDepth: 32,
  /** Characters that substituting variables may produce for one request (or one check of a file). */
  substitutionChars: 4 * MiB,
  /** tradereq.env.json is read only up to this size. */
  envFileBytes: 1 * MiB,
  /** A --cacert file (or NODE_EXTRA_CA_CERTS beside it) is read only up to this size: the whole public CA bundle is ~0.2 MiB. */
  caFileBytes: 4 * MiB,
  /** Above this many characters the editor checks a file in a worker thread, off the typing path. */
  workerCheckChars: 256 * KiB,
  /**
   * A response kept in memory and parsed, counted while it is read (the rest is read and dropped):
   * the public deployment's largest documented answer, exchangeInfo with every symbol, is ~1.4 MiB
   * for 2,500 symbols (~600 bytes each); the symbol look-up takes up to 10,000 symbols (~5.7 MiB),
   * and this leaves room above it. JSON.parse of 8 MiB takes ~0.1 s on a busy two-core machine.
   */
  responseBytes: 8 * MiB,
  /** What a history entry keeps of a response body, and what the panel renders of one at once. */
  historyBodyChars: 64 * KiB,
  /** What a history entry keeps of the request's query, body and totalParams. */
  historyRequestChars: 16 * KiB,
  /** What a history entry keeps of the service's message and of the one-line summary. */
  messageChars: 2 * KiB,
  /**
   * The one depth JSON from outside is read to where anything recurses over it (JSON.stringify does):
   * an answer nested deeper is shown as text rather than pretty-printed, and is not kept or chained;
   * a pasted request's body, a `[json]` body or an imported one deeper is refused.
   */
  prettyJsonDepth: 256,
  /** Pushes the stream view keeps in memory per connection; older ones are counted, not kept. */
  streamViewPushes: 5_000,
  /** What the stream view shows of one push: its JSON text, up to this many characters. */
  pushTextChars: 2 * KiB,
  /** Pushes in one message to the panel (one a connection every ~50 ms at most); more are counted. */
  livePushesPerMessage: 1_000,
  /** The last events (sent, replies, refusals, errors) the stream view lists per connection. */
  streamViewNotes: 30,
  /** A message typed in the stream view, as the panel hands it over (the connection caps its bytes). */
  liveMessageChars: 16 * KiB,
  /** The translations the panel's page reads (its JSON text, and its messages); past either it stays English. */
  panelL10nChars: 1 * MiB,
  panelL10nMessages: 10_000,
  /** Request files one test run takes (tradereq test, the editor's Testing view); the rest are named in one message. */
  testFiles: 10_000,
  /** Parameters of one request an import writes, or a program (Copy as code) sends; more is refused in one line. */
  paramsPerRequest: 1_000,
  /**
   * The longest a paced test run (tradereq test --pace) waits before one request: a Retry-After or
   * a wait for room longer than this (a hostile or confused server) stops the run, saying why.
   */
  paceWaitMs: 60_000,
  /** Headers of one request an import writes, or a program (Copy as code) sends; more is refused in one line. */
  headersPerRequest: 100,
  /** A `# @data` file (CSV or JSON) is read only up to this size. */
  dataFileBytes: 1 * MiB,
  /** Rows of one `# @data` file: one test case each. */
  dataRows: 1_000,
  /** Columns (variables) of one `# @data` file. */
  dataColumns: 100,
  /** One value of a `# @data` file, in characters. */
  dataCellChars: 4 * KiB,
  /** Different `# @data` files one request file reads. */
  dataFilesPerFile: 100,
  /** Test cases the `# @data` requests of one request file make in all (a row each). */
  dataCasesPerFile: 10_000,
  /** A snapshot file (`__snapshots__/FILE.snap.json`) is read, and written, only up to this size (its text is never made longer). */
  snapshotFileBytes: 8 * MiB,
  /**
   * Lists and objects a snapshot's body nests: a deeper answer is kept as its text, a deeper file is
   * not read. Indenting grows a text with its depth (a line 64 deep starts with 128 spaces).
   */
  snapshotDepth: 64,
  /** Lines of a snapshot's diff shown (terminal, reports, the Testing view's message); the rest is counted. */
  snapshotDiffLines: 200,
  /** Time one snapshot diff may take; a longer one is not shown (the two texts still are, in the editor). */
  snapshotDiffMs: 1_000,
  /** Values one `# @expect` path with `*` may reach in an answer or a push; past it the expectation fails. */
  expectValues: 1_000,
  /** A `# @expect … matches /re/` pattern, as written between the slashes. */
  patternChars: 512,
  /**
   * RE2's program size of a pattern (its cost per character matched: `.{1000}` is 1,000), estimated
   * from its text before compiling (an upper bound, format/pattern.ts) and checked once compiled.
   */
  patternProgram: 300,
  /** What a pattern is matched against: one value's text, and all the values one expectation checks. */
  patternSubjectChars: 16 * KiB,
  patternSubjectTotalChars: 256 * KiB,
  /** A decimal compared by `# @expect` (its text, and its exponent in 1e-7): past them it is no decimal. */
  decimalChars: 64,
  decimalExponent: 400,
  /** The text the signature doctor reads a sent request from (a pasted command, request or log excerpt). */
  doctorInputChars: 256 * KiB,
  // Issue 31, inputs whose cost grows past any bound: `# @expect` lists and patterns.
  /** Values of one `# @expect … in [a, b]` list, and its text between the brackets: past either the line is refused. */
  expectListValues: 1_000,
  expectListChars: 32 * KiB,
  /**
   * The patterns of one file (`# @expect … matches`) compiled in all: different ones, and their cost
   * (each its estimated RE2 program, and 64 for each Unicode class it builds: format/pattern.ts).
   * The ones past either are refused without compiling, so a file of patterns checks in linear time.
   */
  patternsPerFile: 256,
  patternCostPerFile: 32_768,
  // The rate-limit state and the clock (issue 31, point 5; each in docs/security.md).
  /** The state file is read only up to this size; a larger one is damage (its counters hold seconds of requests). */
  stateFileBytes: 8 * MiB,
  /**
   * The largest server-clock offset a request is signed with, either way: 15 minutes, far beyond a
   * clock that missed its time sync for months (seconds to minutes) and far short of a wrong time
   * zone (hours) or a dead clock battery (years). A larger offset, measured or read from the state
   * file, is never signed with: the request is refused, naming it.
   */
  clockOffsetMs: 15 * 60_000,
} as const;

/**
 * The largest value of each numeric option of the command line: its --help line names it, and past
 * it the command stops with a usage error (exit 2). A timer waits at most 2^31 - 1 ms in Node (a
 * longer one fires at once), so every option that reaches one stays far below that.
 */
export const OPTION_MAX = {
  /** send and test --timeout and --connect-timeout, in ms: ten minutes. */
  timeoutMs: 600_000,
  /** listen --count: as many pushes as `# @listen N` takes (nine digits, src/core/format/directives.ts). */
  pushes: 999_999_999,
  /** sandbox --port: the highest TCP port. */
  port: 65_535,
  /** sign --timestamp, in ms: thirteen digits, as Unix time in ms is written until the year 2286. */
  timestampMs: 9_999_999_999_999,
} as const;

/** `text` cut to `max` characters, with a note of how much was left out. */
export function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length - max} more characters not kept)`;
}

/** "4 MiB", "64 KiB": a bound as people read it. */
export function formatSize(chars: number): string {
  if (chars >= MiB && chars % MiB === 0) return `${chars / MiB} MiB`;
  if (chars >= KiB && chars % KiB === 0) return `${chars / KiB} KiB`;
  return `${chars} characters`;
}
