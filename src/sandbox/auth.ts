/**
 * Authentication of signed endpoints, spec §5, in this order: API key header (400), its format
 * (700001), a known key (10072), the key's bound IPs (700006), the signature's presence and form
 * (602: not 64 lower-case hex), recvWindow (700005), timestamp (700003), the HMAC over totalParams
 * (700002), the key's permission for the endpoint (700007).
 */
import { DEMO_ACCOUNTS, type DemoAccount } from '../core/env/demo';
import { SIGNATURE_FORMAT, signatureMatches } from '../core/signing/hmac';
import { API_KEY_FORMAT } from '../core/catalog/endpoints';
import { LIMITS, MILLISECOND_TIMESTAMP_MIN } from '../core/catalog/limits';
import { looseEncoding } from '../core/signing/total-params';
import type { RequestParams } from './params';
import { refusal, value, type Answer } from './replies';

type Permission = 'read' | 'trade';

export interface KeyAccount {
  readonly name: DemoAccount['name'];
  readonly apiKey: string;
  readonly secretKey: string;
  readonly permissions: ReadonlySet<Permission>;
  /** Bound IPs; empty means any. */
  readonly ips: ReadonlySet<string>;
}

/** The sandbox's keys: exactly the demo accounts of the core. */
export const KEY_ACCOUNTS: ReadonlyMap<string, KeyAccount> = new Map(
  DEMO_ACCOUNTS.map((d) => [
    d.apiKey,
    {
      name: d.name,
      apiKey: d.apiKey,
      secretKey: d.secretKey,
      permissions: new Set(d.permissions),
      ips: new Set(d.ips),
    },
  ]),
);

export function apiKeyOf(header: string | string[] | undefined): string | undefined {
  return Array.isArray(header) ? header.join(', ') : header;
}

const INTEGER = /^\d{1,16}$/;
const MAX_SHOWN = 400;

interface AuthInput {
  readonly apiKey: string | undefined;
  /** The header the deployment reads the key from. */
  readonly keyHeader: string;
  /** Another deployment's key header the request sent instead, if any. */
  readonly strayHeader?: string | undefined;
  /** The client's address, IPv4-mapped IPv6 written as IPv4. */
  readonly ip: string;
  readonly params: RequestParams;
  readonly serverTime: number;
  readonly permission: Permission | undefined;
  /** §5 rule 6: a batch operation's values must arrive strictly percent-encoded, upper-case hex. */
  readonly strictEncoding?: boolean;
}

// A listen key is a credential: a message that shows totalParams hides it.
const LISTEN_KEY_IN_FORM = /(^|&)(listenKey=)[^&]*/g;
const LISTEN_KEY_IN_JSON = /("listenKey"\s*:\s*")[^"]*/g;

function shownParams(totalParams: string): string {
  const hidden = totalParams.replace(LISTEN_KEY_IN_FORM, '$1$2<hidden>').replace(LISTEN_KEY_IN_JSON, '$1<hidden>');
  return hidden.length > MAX_SHOWN ? hidden.slice(0, MAX_SHOWN) + '…' : hidden;
}

/** The key's account, or the refusal of §5 the request meets first (the order of the header comment). */
export function authenticate(input: AuthInput): Answer<KeyAccount> {
  const account = knownKey(input);
  if (!account.ok) return account;
  const checks = [signaturePresent, timely, encodedStrictly, signatureMatchesParams, permitted];
  for (const check of checks) {
    const refused = check(input, account.value);
    if (refused !== undefined) return refused;
  }
  return account;
}

type Check = (input: AuthInput, account: KeyAccount) => Answer<never> | undefined;

/** §5 rule 1: the key header, its form, a known key, its bound IPs. */
function knownKey(input: AuthInput): Answer<KeyAccount> {
  const { apiKey, keyHeader, strayHeader } = input;
  if (apiKey === undefined || apiKey.length === 0) {
    const stray = strayHeader === undefined ? '' : ` The request sent ${strayHeader}, another deployment's header.`;
    return refusal(400, `Send the access key in the ${keyHeader} header (§5 rule 1).${stray}`);
  }
  if (!API_KEY_FORMAT.test(apiKey))
    return refusal(700001, 'An access key is 16 to 64 letters and digits, with no spaces or quotes.');
  const account = KEY_ACCOUNTS.get(apiKey);
  if (account === undefined)
    return refusal(
      10072,
      'The sandbox knows only its demo keys: trade, readonly and ipbound (see `tradereq sandbox`).',
    );
  if (account.ips.size > 0 && !account.ips.has(input.ip)) {
    return refusal(
      700006,
      `The key "${account.name}" is bound to ${[...account.ips].join(', ')}; this request came from ${input.ip}.`,
    );
  }
  return value(account);
}

/** §5 rules 2 and 5: a signature is sent, as 64 lower-case hex characters. */
const signaturePresent: Check = ({ params }) => {
  const signature = params.values.get('signature');
  if (signature === undefined || signature.length === 0) {
    return refusal(
      44444,
      'Mandatory parameter "signature" was not sent; send it in the query string or the body (§5 rule 2).',
    );
  }
  if (!SIGNATURE_FORMAT.test(signature))
    return refusal(602, 'The signature must be 64 lower-case hexadecimal characters (§5 rule 5).');
  return undefined;
};

/** §5 rule 8: recvWindow, when sent, is whole milliseconds up to the maximum. */
function recvWindowOf(params: RequestParams): Answer<number> {
  const { recvWindow: window } = LIMITS;
  const rw = params.values.get('recvWindow');
  if (rw === undefined) return value(window.defaultMs);
  if (!INTEGER.test(rw)) return refusal(33333, `recvWindow must be a whole number of milliseconds, not "${rw}".`);
  // the maximum is read as 60000 inclusive (docs/service.md, Assumptions: Two readings).
  if (Number(rw) > window.maxMs)
    return refusal(700005, `recvWindow ${rw} is above the maximum of ${window.maxMs} ms (§5 rule 8).`);
  return value(Number(rw));
}

/** §5 rules 7 and 9: a millisecond timestamp within recvWindow of the server time. */
const timely: Check = ({ params, serverTime: now }) => {
  const recvWindow = recvWindowOf(params);
  if (!recvWindow.ok) return recvWindow;
  const ts = params.values.get('timestamp');
  if (ts === undefined || ts.length === 0)
    return refusal(44444, 'Mandatory parameter "timestamp" was not sent (§5 rule 7).');
  if (!INTEGER.test(ts)) return refusal(33333, `timestamp must be a Unix time in milliseconds, not "${ts}".`);
  const timestamp = Number(ts);
  if (timestamp < MILLISECOND_TIMESTAMP_MIN)
    return refusal(10073, `timestamp ${ts} looks like seconds; send milliseconds (§5 rule 7).`);
  // §5 rule 9: processed only when timestamp < serverTime + 1000 and serverTime - timestamp <= recvWindow.
  if (timestamp < now + LIMITS.timestampAheadMs && now - timestamp <= recvWindow.value) return undefined;
  const gap = timestamp >= now ? `${timestamp - now} ms ahead of` : `${now - timestamp} ms behind`;
  return refusal(
    700003,
    `timestamp ${ts} is ${gap} the server time ${now} (recvWindow ${recvWindow.value}); check the clock offset against GET /api/v3/time.`,
  );
};

/** §5 rule 6: a batch operation's values arrive strictly percent-encoded. */
const encodedStrictly: Check = ({ params, strictEncoding }) => {
  if (strictEncoding !== true) return undefined;
  const loose = looseEncoding(params.encodedParams);
  if (loose === undefined) return undefined;
  return refusal(
    700002,
    `For a batch operation every special character of a value is signed and sent percent-encoded with upper-case hex (§5 rule 6); here ${loose}.`,
  );
};

/** §5 rule 4: the HMAC of totalParams with the key's secret. */
const signatureMatchesParams: Check = ({ params }, account) => {
  if (signatureMatches(account.secretKey, params.totalParams, params.values.get('signature')!)) return undefined;
  return refusal(
    700002,
    `The sandbox signed totalParams = ${JSON.stringify(shownParams(params.totalParams))} (query string followed directly by the body, signature left out, §5 rule 4).`,
  );
};

const permitted: Check = ({ permission }, account) => {
  if (permission === undefined || account.permissions.has(permission)) return undefined;
  return refusal(700007, `The key "${account.name}" lacks the ${permission} permission this endpoint needs.`);
};
