import type { ErrorCodeInfo } from './types';

// Shared by 602 and 700002: the spec gives both codes for an invalid signature (§5 rule 10).
const SIGNATURE_CAUSE =
  'The signature does not match the HMAC SHA256 of the exact totalParams sent (query string followed directly by the body, §5 rules 3-4). ' +
  "Usual reasons: loose percent-encoding (encodeURIComponent leaves ! ' ( ) * unencoded, so a value like BEP20(BSC) signs one string and sends another), " +
  'a hand-written signature, empty parameters that still get signed, the wrong secret, or signing something other than what is sent.';
const SIGNATURE_ACTION =
  'TradeReq adds timestamp and signature itself; remove a hand-written "signature" line. ' +
  'Fill in or remove empty parameters ("name =" with no value), check that the key profile bound to the environment holds the secret that belongs to its access key, ' +
  'and do not change the request after it is signed. ' +
  'For a request your own program sent, tradereq doctor (or "TradeReq: Explain a Rejected Request") names the mistake it made.';

// §7.1: a 5XX outcome is unknown, so the same advice applies to the 5xx-valued codes.
const UNKNOWN_OUTCOME_ACTION =
  'The outcome of the operation is unknown and may have succeeded: check before retrying ' +
  '(for an order, query it by orderId or origClientOrderId, or list open orders). ' +
  'Never retry an order blindly: a retry can place it twice.';

const ID_SYMBOL_ACTION =
  'Check the spelling: symbols are upper-case letters with no separator (BTCUSDT, not btc-usdt); query exchangeInfo for the listed symbols.';

const POSITION_ACTION =
  'Check the free balance of the asset (GET /api/v3/account), lower the quantity, or cancel open orders that hold it.';

const UNKNOWN_SYMBOL_CAUSE =
  'The symbol is not a trading pair the service knows, is misspelt, or is not in upper case.';

/** Every code of the §7.2 table, in table order. Meanings are the spec's, first letter capitalised. */
export const ERROR_CODES: readonly ErrorCodeInfo[] = [
  {
    code: -2011,
    meanings: ['Unknown order sent'],
    category: 'order',
    cause:
      'The order to query or cancel was not found: wrong orderId or origClientOrderId, a symbol that does not match the order, or the order is already filled, cancelled or expired.',
    action: 'Check the order id and the symbol together; list open orders to see which orders are still live.',
  },
  { code: 26, meanings: ['Operation not allowed'], category: 'system' },
  {
    code: 400,
    meanings: ['API key required'],
    category: 'auth',
    cause: 'A signed endpoint was called without the X-SERVICE-APIKEY header (§5 rule 10: a missing key gives 400).',
    action:
      'Check the key profile bound to the environment: TradeReq sends X-SERVICE-APIKEY from it. If you wrote the header by hand, check its name and that its value is not empty.',
  },
  {
    code: 401,
    meanings: ['No authority'],
    category: 'auth',
    cause:
      'The key was read but is not allowed to do this: the key or the account lacks the right for the endpoint or the operation.',
    action:
      "Check the key profile bound to the environment and the key's permissions in API key management (the spec does not name permissions, §5 rule 12).",
  },
  {
    code: 403,
    meanings: ['Access denied'],
    category: 'auth',
    cause:
      'The request was refused before it reached the API, usually by the web application firewall limit (HTTP 403, §7.1).',
    action:
      'Stop sending for a while, then send fewer requests; check that the request has no unusual content (very large values, odd characters) and that you send from an allowed IP.',
  },
  {
    code: 429,
    meanings: ['Too many requests'],
    category: 'limits',
    cause:
      'The request rate limit was exceeded: 500 per 10 seconds in IP mode (endpoints without a key) and in UID mode (endpoints with a key), counted by endpoint weight (§8).',
    action:
      'Stop sending and wait the number of seconds in the Retry-After header. Continuing after 429 leads to an automatic IP ban of 2 minutes up to 3 days (§8 rules 1-4); spread requests out.',
  },
  {
    code: 500,
    meanings: ['Internal error'],
    category: 'system',
    cause:
      'The service failed internally while handling the request (§7.1, 5XX); it may have carried out the operation before failing.',
    action: UNKNOWN_OUTCOME_ACTION,
  },
  {
    code: 503,
    meanings: ['Service not available, try again'],
    category: 'system',
    cause: 'The service was temporarily unable to answer; it may still have acted on the request.',
    action: UNKNOWN_OUTCOME_ACTION,
  },
  {
    code: 504,
    meanings: ['Gateway time-out'],
    category: 'system',
    cause:
      'A gateway in front of the service gave up waiting for the answer; the service may have processed the request anyway.',
    action: UNKNOWN_OUTCOME_ACTION,
  },
  {
    code: 602,
    meanings: ['Signature verification failed'],
    category: 'auth',
    cause: SIGNATURE_CAUSE,
    action: SIGNATURE_ACTION,
  },
  { code: 10001, meanings: ['User does not exist'], category: 'account' },
  {
    code: 10007,
    meanings: ['Bad symbol', 'Symbol not supported for API trading'],
    category: 'order',
    cause:
      'The symbol is not a trading pair the service knows, is misspelt or not in upper case, or is listed but not open for API trading.',
    action: `${ID_SYMBOL_ACTION} A listed pair that is not open for API trading cannot be traded through the API.`,
  },
  { code: 10015, meanings: ['User id cannot be null'], category: 'account' },
  {
    code: 10072,
    meanings: ['Invalid access key'],
    category: 'auth',
    cause:
      'The access key in X-SERVICE-APIKEY is unknown to the service or no longer valid, for example deleted or created for another environment (§5 rule 10).',
    action:
      'Check the key profile bound to the environment: its access key must belong to this service and base URL. Create a new key if the old one was deleted.',
  },
  {
    code: 10073,
    meanings: ['Invalid request time'],
    category: 'timing',
    cause:
      'The timestamp is missing, not a Unix time in milliseconds (seconds are a common slip), or too far from the server time because the local clock is off.',
    action:
      'Do not write timestamp by hand: TradeReq adds it when signing, corrected by the server clock offset it measures (unless clock sync is off).',
  },
  { code: 10095, meanings: ['Amount cannot be null'], category: 'transfer' },
  { code: 10096, meanings: ['Amount has too many decimal places'], category: 'transfer' },
  { code: 10097, meanings: ['Amount is wrong'], category: 'transfer' },
  {
    code: 10098,
    meanings: ['Risk control detected abnormal activity; transfer unavailable, retry later'],
    category: 'transfer',
  },
  { code: 10099, meanings: ['User sub account not opened'], category: 'subaccount' },
  { code: 10100, meanings: ['Transfer of this currency not supported'], category: 'transfer' },
  {
    code: 10101,
    meanings: ['Insufficient balance'],
    category: 'account',
    cause:
      'The account does not have enough free balance of the asset for the order or transfer; funds held by open orders are not free.',
    action:
      'Check the balance (GET /api/v3/account), lower the quantity or amount, or cancel open orders that hold the funds.',
  },
  { code: 10102, meanings: ['Amount cannot be zero or negative'], category: 'transfer' },
  { code: 10103, meanings: ['Transfer for this account not supported'], category: 'transfer' },
  { code: 10200, meanings: ['Transfer operation processing'], category: 'transfer' },
  { code: 10201, meanings: ['Transfer in failed'], category: 'transfer' },
  { code: 10202, meanings: ['Transfer out failed'], category: 'transfer' },
  { code: 10206, meanings: ['Transfer is disabled'], category: 'transfer' },
  { code: 10211, meanings: ['Transfer is forbidden', 'Withdrawal forbidden'], category: 'transfer' },
  {
    code: 10212,
    meanings: ['Withdrawal address is not on the commonly used address list or has been invalidated'],
    category: 'transfer',
  },
  { code: 10216, meanings: ['No address available, try again later'], category: 'transfer' },
  { code: 10219, meanings: ['Asset flow writing failed, try again'], category: 'transfer' },
  { code: 10222, meanings: ['Currency cannot be null'], category: 'transfer' },
  { code: 10232, meanings: ['Currency does not exist'], category: 'transfer' },
  { code: 10259, meanings: ['Intermediate account not configured'], category: 'transfer' },
  { code: 10265, meanings: ['Withdrawal unavailable due to risk control, try again later'], category: 'transfer' },
  { code: 10268, meanings: ['Remark is too long'], category: 'transfer' },
  { code: 11444, meanings: ['Feature temporarily unavailable'], category: 'system' },
  { code: 20001, meanings: ['Subsystem not supported'], category: 'system' },
  { code: 20002, meanings: ['Internal system error, contact support'], category: 'system' },
  { code: 22222, meanings: ['Record does not exist'], category: 'parameters' },
  {
    code: 30000,
    meanings: ['Trading of the symbol is suspended'],
    category: 'order',
    cause: 'The platform has paused trading of this pair, for example for maintenance, listing or delisting.',
    action: "Retry later; check the pair's status in exchangeInfo before sending again.",
  },
  {
    code: 30001,
    meanings: ['The current trade direction is not allowed to place an order'],
    category: 'order',
    cause: 'The pair accepts only one side at the moment: buying or selling is paused for it.',
    action: 'Check the side (BUY or SELL); retry later or trade another pair.',
  },
  {
    code: 30002,
    meanings: ['Trade volume is below the minimum'],
    category: 'order',
    cause: "The order's quantity, or quantity times price, is under the pair's minimum order size.",
    action: "Raise the quantity; look up the pair's minimum in exchangeInfo.",
  },
  {
    code: 30003,
    meanings: ['Trade volume is above the maximum'],
    category: 'order',
    cause: "The order's quantity is above the pair's maximum for one order.",
    action: 'Lower the quantity or split the order into several smaller orders.',
  },
  {
    code: 30004,
    meanings: ['Insufficient position'],
    category: 'order',
    cause: 'The order sells more of the asset than the account holds free.',
    action: POSITION_ACTION,
  },
  {
    code: 30005,
    meanings: ['Oversold'],
    category: 'order',
    cause: 'The sell quantity is more than the available position, counting what open orders already sell.',
    action: POSITION_ACTION,
  },
  {
    code: 30010,
    meanings: ['No valid trade price'],
    category: 'order',
    cause:
      "No valid price could be set for the order: the price is missing or outside the pair's allowed range, or a market order found no price in the book.",
    action: 'Check the price against the current market; use a LIMIT order with an explicit price.',
  },
  {
    code: 30014,
    meanings: ['Invalid symbol'],
    category: 'order',
    cause: UNKNOWN_SYMBOL_CAUSE,
    action: ID_SYMBOL_ACTION,
  },
  {
    code: 30016,
    meanings: ['Trading disabled'],
    category: 'order',
    cause: 'Trading is disabled for this pair or for the account.',
    action: "Check the pair's status in exchangeInfo and the account's state; contact support if it persists.",
  },
  {
    code: 30018,
    meanings: ['Market order is disabled'],
    category: 'order',
    cause: 'The pair does not accept MARKET orders at the moment.',
    action: 'Place a LIMIT order with quantity and price instead.',
  },
  {
    code: 30019,
    meanings: ['API market order is disabled'],
    category: 'order',
    cause: 'MARKET orders for this pair are not accepted through the API.',
    action: 'Place a LIMIT order with quantity and price instead.',
  },
  {
    code: 30020,
    meanings: ['No permission for the symbol'],
    category: 'order',
    cause: 'The account or the key may not trade this pair, for example a restricted pair.',
    action: 'Check the key profile bound to the environment and the account; trade another pair or contact support.',
  },
  {
    code: 30021,
    meanings: ['Invalid symbol'],
    category: 'order',
    cause: UNKNOWN_SYMBOL_CAUSE,
    action: ID_SYMBOL_ACTION,
  },
  {
    code: 30025,
    meanings: ['No opposing order exists'],
    category: 'order',
    cause:
      'The order must match at once (market, IMMEDIATE_OR_CANCEL, FILL_OR_KILL) and the book has no order on the other side.',
    action: 'Retry later, or place a LIMIT order that can rest in the book.',
  },
  {
    code: 30026,
    meanings: ['Invalid order ids'],
    category: 'order',
    cause: 'One or more order ids are malformed or do not belong to the symbol or account.',
    action:
      'Copy the orderId exactly as returned (it is text, not a number) and check that the symbol matches the order.',
  },
  {
    code: 30027,
    meanings: ['Currency reached maximum position limit, buying suspended'],
    category: 'order',
    cause:
      "The platform's position limit for the asset has been reached, so buy orders are refused; selling still works.",
    action: 'Retry the buy later or buy another asset.',
  },
  {
    code: 30028,
    meanings: ['Currency triggered platform risk control, selling suspended'],
    category: 'order',
    cause: "The platform's risk control has paused selling of the asset.",
    action: 'Retry the sell later; contact support if it persists.',
  },
  {
    code: 30029,
    meanings: ['Cannot exceed the maximum order limit'],
    category: 'order',
    cause: 'The account already has the maximum number of open orders allowed.',
    action: 'Cancel open orders you no longer need (list them with openOrders) before placing new ones.',
  },
  {
    code: 30032,
    meanings: ['Cannot exceed the maximum position'],
    category: 'order',
    cause: 'The order would take the holding of the asset above the maximum allowed.',
    action: 'Lower the quantity.',
  },
  {
    code: 30041,
    meanings: ['The current order type cannot place an order'],
    category: 'order',
    cause: 'The pair does not accept this order type at the moment.',
    action: "Use another type, usually LIMIT; check the pair's orderTypes in exchangeInfo.",
  },
  {
    code: 33333,
    meanings: ['Parameter error'],
    category: 'parameters',
    cause:
      'A parameter has a wrong value or format: for example a decimal with too many places, a misspelt side or type, or text where a number is expected.',
    action:
      'Check each parameter against its hover description; send decimals as plain text without an exponent and use the listed values for side and type.',
  },
  {
    code: 44444,
    meanings: ['Parameter cannot be null'],
    category: 'parameters',
    cause: 'A required parameter is missing or sent empty ("name =" with no value).',
    action: 'Fill in the value or add the missing parameter; LIMIT orders need quantity and price.',
  },
  { code: 60005, meanings: ['Account is abnormal'], category: 'account' },
  {
    code: 70011,
    meanings: ['Pair is banned from API key trading', 'Symbol not supported for API trading'],
    category: 'order',
    cause: 'The pair exists but cannot be traded with an API key.',
    action: 'Trade another pair through the API; this pair can only be traded outside the API.',
  },
  {
    code: 700001,
    meanings: ['API key format invalid'],
    category: 'auth',
    cause:
      'The X-SERVICE-APIKEY value is not shaped like an access key: often truncated, with stray spaces, newlines or quotes, or the secret pasted in place of the access key.',
    action:
      'Check the key profile bound to the environment and paste the access key again, without surrounding whitespace or quotes.',
  },
  {
    code: 700002,
    meanings: ['Signature for this request is not valid'],
    category: 'auth',
    cause: SIGNATURE_CAUSE,
    action: SIGNATURE_ACTION,
  },
  {
    code: 700003,
    meanings: ['Timestamp is outside of the recvWindow'],
    category: 'timing',
    cause:
      'A request is processed only when timestamp < serverTime + 1000 and serverTime - timestamp <= recvWindow (§5 rule 9). ' +
      'Clock skew is the usual cause: a clock 1000 ms or more ahead of the server is always refused, and one behind by more than recvWindow too.',
    action:
      'Nothing was processed, so sending again is safe: after a 700003 TradeReq measures the server clock offset again at once, for the next send. ' +
      'If it is refused again, leave clock sync on, do not write timestamp by hand, and set the system clock. Keep recvWindow at the default 5000 rather than widening it to hide skew.',
  },
  {
    code: 700004,
    // Starts with a parameter name, so the first letter keeps the spec's case.
    meanings: ['origClientOrderId or orderId must be sent, both were empty'],
    category: 'parameters',
    cause: 'An order query or cancel was sent without an order identifier, or with the identifier present but empty.',
    action:
      'Add orderId (from the order response) or origClientOrderId (the client order id given when placing), with a value.',
  },
  {
    code: 700005,
    // Starts with a parameter name, so the first letter keeps the spec's case.
    meanings: ['recvWindow must be less than 60000'],
    category: 'timing',
    cause:
      'recvWindow is above the limit. The spec words the maximum both ways (less than 60000 here, maximum 60000 in §5 rule 8 and §8), so exactly 60000 may be refused.',
    action:
      'Use at most 59999 to be safe, or the default 5000 (the spec recommends 5000 or less); fix clock skew with clock sync instead of a wider window.',
  },
  {
    code: 700006,
    meanings: ['IP not on the whitelist'],
    category: 'auth',
    cause:
      'The key has a bound IP list and the request came from an address not on it (§5 rule 10); proxies, VPNs and changing public IPs are common reasons.',
    action:
      "Add the public IP you send from to the key's bound IP list (at most 10 IPs), or send from a listed address; check the key profile bound to the environment is the key you expect.",
  },
  {
    code: 700007,
    meanings: ['No permission to access the endpoint'],
    category: 'auth',
    cause:
      'The key lacks the permission this endpoint needs (§5 rule 10), for example a read-only key placing an order.',
    action:
      "Check the key profile bound to the environment and use a key with the right permission, or edit the key's permissions in API key management.",
  },
  {
    code: 700008,
    meanings: ['Illegal characters found in a parameter'],
    category: 'parameters',
    cause:
      'A parameter value contains characters the service refuses, often stray spaces, quotes or unencoded special characters pasted into a value.',
    action:
      'Remove spaces, quotes and non-ASCII characters from values; symbols are upper-case letters (§2.1), and special characters must be percent-encoded in upper case (§5 rule 6).',
  },
  { code: 730000, meanings: ['Request failed, contact customer service'], category: 'system' },
  { code: 730001, meanings: ['Pair not found', 'User information error'], category: 'parameters' },
  { code: 730002, meanings: ['Input parameter invalid', 'Parameter error'], category: 'parameters' },
  { code: 730003, meanings: ['Unsupported operation, contact customer service'], category: 'system' },
  { code: 730100, meanings: ['Unusual user status'], category: 'account' },
  { code: 730101, meanings: ['User name already exists'], category: 'account' },
  { code: 730600, meanings: ['Sub-account name cannot be null'], category: 'subaccount' },
  { code: 730601, meanings: ['Sub-account name must be 8 to 32 letters and digits'], category: 'subaccount' },
  { code: 730602, meanings: ['Sub-account remarks cannot be null'], category: 'subaccount' },
  { code: 730700, meanings: ['API key remarks cannot be null'], category: 'apikey' },
  { code: 730701, meanings: ['API key permission cannot be null'], category: 'apikey' },
  { code: 730702, meanings: ['API key permission does not exist'], category: 'apikey' },
  { code: 730703, meanings: ['IP information incorrect; at most 10 IPs may be bound'], category: 'apikey' },
  { code: 730704, meanings: ['Bound IP format incorrect'], category: 'apikey' },
  { code: 730705, meanings: ['At most 30 groups of API keys may be created'], category: 'apikey' },
  { code: 730706, meanings: ['API key information does not exist'], category: 'apikey' },
  // Starts with a parameter name, so the first letter keeps the spec's case.
  { code: 730707, meanings: ['accessKey cannot be null'], category: 'apikey' },
  { code: 140001, meanings: ['Sub account does not exist'], category: 'subaccount' },
  { code: 140002, meanings: ['Sub account is forbidden'], category: 'subaccount' },
];

const BY_CODE: ReadonlyMap<number, ErrorCodeInfo> = new Map(ERROR_CODES.map((info) => [info.code, info]));

export function lookupError(code: number): ErrorCodeInfo | undefined {
  return BY_CODE.get(code);
}

/** Plain text (no markup): shared by `tradereq errors` and editor hover. */
export function formatErrorText(info: ErrorCodeInfo): string {
  const lines = [`${info.code}: ${info.meanings.join(' / ')}`];
  if (info.cause !== undefined) lines.push(`Cause: ${info.cause}`);
  if (info.action !== undefined) lines.push(`What to do: ${info.action}`);
  return lines.join('\n');
}
