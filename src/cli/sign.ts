import { parseCommand, integerFlag } from './args';
import { OPTION_MAX } from '../core/bounds';
import { redactedHeaders } from '../core/request/build';
import { resolveAndPrepare, signedRequestText } from '../core/request/prepare';
import { defaultStateDir } from '../core/budget/state-dir';
import { CLI, REQUESTS, SIGN } from './messages';
import { chainedResponses, failureMessage, keySource, loadTarget } from './prepare';
import { UsageError, type Io } from './usage';

export async function signCommand(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseCommand('sign', args, {
    request: { type: 'string' },
    env: { type: 'string' },
    'base-url': { type: 'string' },
    timestamp: { type: 'string' },
    json: { type: 'boolean' },
  });
  if (values.help) {
    io.out(SIGN.help(OPTION_MAX.timestampMs));
    return 0;
  }
  if (positionals.length !== 1) throw new UsageError(SIGN.takesOneFile);
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
  for (const w of warnings) io.err(CLI.warning(w));
  if (!ready.ok) throw new UsageError(failureMessage(target.file, ready.error));
  for (const u of used) io.err(REQUESTS.usedAnswer(u));
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
