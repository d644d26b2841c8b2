import { parseCommand, integerFlag } from './args';
import { redactedHeaders } from '../core/request/build';
import { keyFor, loadTarget, prepareOrThrow, resolveOrThrow } from './prepare';
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
  --timestamp MS        sign with this timestamp (milliseconds) instead of now, for reproducible output
  --json                print one JSON object: method, url, query, body, totalParams, signature,
                        timestamp, headers (API key masked), signed, environment, keyProfile
  -h, --help            this help

Keys: TRADEREQ_<PROFILE>_API_KEY and TRADEREQ_<PROFILE>_SECRET_KEY (profile upper-cased, "-" as
"_"), else TRADEREQ_API_KEY and TRADEREQ_SECRET_KEY. The built-in sandbox profile has a demo key
for loopback addresses. The secret key is used for the signature and never printed.`;

export function signCommand(args: string[], io: Io): number {
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
  const timestamp = integerFlag('timestamp', values.timestamp);
  const target = loadTarget(io, {
    file: positionals[0]!,
    request: values.request,
    env: values.env,
    baseUrl: values['base-url'],
  });
  const environment = target.environment;
  const resolved = resolveOrThrow(target, target.requests[0]!);
  // Signing sends nothing, so the key's origin binding is checked by `send`, not here.
  const key = resolved.signed ? keyFor(resolved, target, io.env).key : undefined;
  const keyProfile = resolved.keyProfile;
  const p = prepareOrThrow(resolved, key, timestamp);
  const headers = redactedHeaders(p);
  if (values.json) {
    io.out(
      JSON.stringify(
        {
          method: p.method,
          url: p.url,
          query: p.query,
          body: p.body,
          totalParams: p.totalParams ?? null,
          signature: p.signature ?? null,
          timestamp: p.timestamp ?? null,
          headers: Object.fromEntries(headers),
          signed: p.signed,
          environment: environment.name,
          keyProfile: p.signed ? (keyProfile ?? null) : null,
        },
        null,
        2,
      ),
    );
    return 0;
  }
  const lines = [`${p.method} ${p.url}`, ...headers.map(([n, v]) => `${n}: ${v}`), ''];
  if (p.body.length > 0) lines.push(p.body, '');
  if (p.signed) lines.push(`# totalParams: ${p.totalParams}`, `# signature: ${p.signature}`);
  else lines.push('# not signed');
  io.out(lines.join('\n'));
  return 0;
}
