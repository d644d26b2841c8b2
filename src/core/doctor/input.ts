/**
 * Reads what a program sent from the user's text: a cURL command, Python's http.client debug lines,
 * a raw HTTP request, a URL and a body, or a log line holding one, tried in that order (a cURL
 * command's text may hold URLs, a raw request's headers too). Each form has its reader
 * (input-curl.ts, input-python.ts, input-http.ts, input-url.ts); this file bounds the text, finds an
 * answer's code beside the request, its status line and Date after it, and words the failures.
 */
import { BOUNDS, formatSize } from '../bounds';
import { ConvertError } from '../convert/import-result';
import { textNestsDeeperThan } from '../format/json-value';
import { err, ok, type Result } from '../result';
import { readAnswer } from './answer-time';
import { InputError, type Found } from './input-common';
import { findCurl } from './input-curl';
import { findHttp } from './input-http';
import { findPythonSend } from './input-python';
import { findUrl } from './input-url';
import { hideSecrets } from './secret-sent';
import type { SentRequest } from './types';

const WHAT_TO_PASTE =
  'paste the request your program sent: a cURL command, a raw HTTP request (request line, headers, blank line, body), or its URL and body';

/**
 * The first `"code": N` (or `code=N`, `'code': N`) of an answer in `text`, found by indexOf: an error
 * body is `{"code": N, "msg": "..."}` (docs/service.md §7.1). 0, success in this family, is no error.
 */
function answerCode(text: string): number | undefined {
  for (let i = text.indexOf('code'); i >= 0; i = text.indexOf('code', i + 4)) {
    if (i > 0 && /\w/.test(text[i - 1]!)) continue;
    const m = /^code["']?[ \t]{0,8}[:=][ \t]{0,8}["']?(-?\d{1,9})(?!\d)/.exec(text.slice(i, i + 40));
    if (m && Number(m[1]) !== 0) return Number(m[1]);
  }
  return undefined;
}

/** Parameters of a form text ("&" separated), for the bound. */
function countParams(form: string): number {
  let n = form.length > 0 ? 1 : 0;
  for (let i = form.indexOf('&'); i >= 0; i = form.indexOf('&', i + 1)) n++;
  return n;
}

/** The found request within the bounds of what a request holds (src/core/bounds.ts). */
function bounded(found: Found): Found['request'] {
  const r = found.request;
  if (r.headers.length > BOUNDS.headersPerRequest)
    throw new InputError(
      `the request has ${r.headers.length} headers, more than the ${BOUNDS.headersPerRequest} the doctor reads: paste the request your program sent`,
    );
  const json = r.body.trimStart().startsWith('{') || r.body.trimStart().startsWith('[');
  // Read as JSON later, and written out by JSON.stringify, which recurses: too deep is refused first.
  if (json && textNestsDeeperThan(r.body, BOUNDS.prettyJsonDepth))
    throw new InputError(
      `the JSON body nests deeper than ${BOUNDS.prettyJsonDepth} levels, more than the doctor reads (the service takes flat parameters): paste the request your program sent`,
    );
  const params = countParams(r.query) + (json ? 0 : countParams(r.body));
  if (params > BOUNDS.paramsPerRequest)
    throw new InputError(
      `the request has ${params} parameters, more than the ${BOUNDS.paramsPerRequest} the doctor reads: paste the request your program sent`,
    );
  return r;
}

function read(text: string): SentRequest {
  const found = findCurl(text) ?? findPythonSend(text) ?? findHttp(text) ?? findUrl(text);
  if (found === undefined) throw new InputError(`no request found in the text: ${WHAT_TO_PASTE}`);
  const request = bounded(found);
  const code = answerCode(found.after) ?? answerCode(found.before);
  // The answer follows the request: its status says whether it was accepted, its Date when (answer-time.ts).
  const answer = readAnswer(found.after);
  return { ...request, ...(code !== undefined ? { code } : {}), ...(answer !== undefined ? { answer } : {}) };
}

/**
 * The request in `text`, or one line saying why it cannot be read and what to paste instead. The
 * line may quote the text: with `secrets` (every secret the doctor knows), it quotes the text with
 * each of them hidden, so a secret written in what was pasted never reaches a message.
 */
export function readSentRequest(text: string, secrets: readonly string[] = []): Result<SentRequest, string> {
  const first = readOnce(text);
  if (first.ok) return first;
  // A word the readers take where the secret stood (no space or quote to change how a line splits).
  const hidden = hideSecrets(text, secrets, 'SECRET_KEY_HIDDEN');
  if (hidden === text) return first;
  const again = readOnce(hidden);
  return again.ok ? err(`the request cannot be read: ${WHAT_TO_PASTE}`) : again;
}

function readOnce(text: string): Result<SentRequest, string> {
  if (text.length > BOUNDS.doctorInputChars)
    return err(
      `the text is ${text.length} characters long, more than the ${formatSize(BOUNDS.doctorInputChars)} the doctor reads: paste only the one request (and its answer)`,
    );
  if (text.trim() === '') return err(`nothing to read: ${WHAT_TO_PASTE}`);
  try {
    return ok(read(text));
  } catch (e) {
    if (e instanceof InputError) return err(e.message);
    // The importer's splitter and option reader word their failures (an unclosed quote, an option without its value).
    if (e instanceof ConvertError) return err(`${e.message}: paste the whole command as it ran`);
    throw e;
  }
}
