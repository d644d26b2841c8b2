import { parseCommand, integerFlag } from './args';
import { OPTION_MAX } from '../core/bounds';
import { redactedHeaders } from '../core/request/build';
import { resolveAndPrepare, signedRequestText } from '../core/request/prepare';
import { defaultStateDir } from '../core/budget/state-dir';
import { chainedResponses, failureMessage, keySource, loadTarget, usedAnswerLine } from './prepare';
import { UsageError, type Io } from './usage';

export const SIGN_HELP = `Usage: tradereq sign FILE [--request NAME|INDEX] [--env NAME] [--base-url URL] [--timestamp MS] [--json]

Prints a request of FILE exactly as it would be sent: method and full URL with the final query
string, headers (API key masked), body, then totalParams and signature as comment lines.
Nothing is sent.

  --request NAME|INDEX  the request named by "# @name NAME", or its position (1 is the first);
                        needed when the file holds more than one request
  --env NAME            environment of tradereq.env.json (default: TRADEREQ_ENV, the file's only
                        environment, or "sandbox")
  --base-url URL        use this base URL instead of the environment's
  --timestamp MS        sign with this timestamp (milliseconds, at most ${OPTION_MAX.timestampMs}) instead of now,
                        for reproducible output
  --json                print one JSON object: method, url, query, body, totalParams, signature,
                        timestamp, headers (API key masked), signed, environment, keyProfile
  -h, --help            this help

Keys: TRADEREQ_<PROFILE>_API_KEY and TRADEREQ_<PROFILE>_SECRET_KEY (profile upper-cased, "-" as
"_"), else TRADEREQ_API_KEY and TRADEREQ_SECRET_KEY. The built-in sandbox profile has a demo key
for loopback addresses. The secret key is used for the signature and never printed.

{{NAME.response.PATH}} reads the answer kept by the last \`tradereq send\` of that request (as for send).

Exit codes: 0 printed; 2 bad input (no key, a variable that does not resolve; nothing printed).`;

export async function signCommand(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseCommand('sign', args, {
    request: { type: 'string' },
    env: { type: 'string' },
    'base-url': { type: 'string' },
    timestamp: { type: 'string' },
    json: { type: 'boolean' },
  });
  if (values.help) {
    io.out(SIGN_HELP);
    return 0;
  }
  if (positionals.length !== 1) throw new UsageError('sign takes one FILE. See: tradereq sign --help');
  const timestamp = integerFlag('timestamp', values.timestamp, 0, OPTION_MAX.timestampMs);
  const target = loadTarget(io, {
    file: positionals[0]!,
    request: values.request,
    env: values.env,
    baseUrl: values['base-url'],
  });
  // Signing sends nothing, so the key's origin binding is checked by `send`, not here.
  const responses = chainedResponses(defaultStateDir(io.env), target);
  const ready = await resolveAndPrepare(target.file.doc, target.requests[0]!, target.environment, {
    key: keySource(target, io.env),
    timestamp,
    context: { response: (name) => responses.get(name) },
  });
  const { used, warnings } = responses.take();
  for (const w of warnings) io.err(`tradereq: warning: ${w}`);
  if (!ready.ok) throw new UsageError(failureMessage(target.file, ready.error));
  for (const u of used) io.err(usedAnswerLine(u));
  const { prepared: p, resolved } = ready.value;
  if (!values.json) {
    io.out(signedRequestText(p));
    return 0;
  }
  const fields = {
    method: p.method,
    url: p.url,
    query: p.query,
    body: p.body,
    totalParams: p.totalParams ?? null,
    signature: p.signature ?? null,
    timestamp: p.timestamp ?? null,
    headers: Object.fromEntries(redactedHeaders(p)),
    signed: p.signed,
    environment: target.environment.name,
    keyProfile: p.signed ? (resolved.keyProfile ?? null) : null,
  };
  io.out(JSON.stringify(fields, null, 2));
  return 0;
}
