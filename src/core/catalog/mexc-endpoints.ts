/**
 * The REST endpoints MEXC's Spot API v3 documents (deployment-mexc.ts; docs/websocket.md,
 * "Deployments"): every method and path of its documentation, with the weights, permissions and
 * parameters it states. The rows the spec also has reuse the spec's (endpoints.ts) with what this
 * deployment documents differently; the parameters every signed request takes are the spec's.
 *
 * Counting: the documentation labels nearly every endpoint "Weight(IP)", signed ones included, yet
 * its limits section counts keyed requests per account. `mode` follows that rule (§8: signed ⇒
 * per account) and `documentedMode` keeps the label.
 */
import {
  ENDPOINTS,
  batchOrders,
  listenKey,
  orderIdParams,
  orderParams,
  signedParams,
  symbol,
  typeRequirements,
} from './endpoints';
import type { EndpointInfo, EnumValueInfo, ParamInfo, UndocumentedPaths } from './types';

type Row = Omit<EndpointInfo, 'source' | 'weightSource' | 'mode' | 'params'> & {
  readonly params?: readonly ParamInfo[];
  readonly weightSource?: EndpointInfo['weightSource'];
};

/** A parameter as this deployment documents it: its own words, the deployment as the source. */
function p(name: string, type: ParamInfo['type'], description: string, extra: Partial<ParamInfo> = {}): ParamInfo {
  return { name, type, description, required: false, source: 'spec', ...extra };
}

function required(param: ParamInfo): ParamInfo {
  return { ...param, required: true };
}

function values(...list: readonly [string, string][]): EnumValueInfo[] {
  return list.map(([value, description]) => ({ value, description, source: 'spec' }));
}

/** What the spec's shared parameters become here: documented, their values too. */
function documentedParam(param: ParamInfo): ParamInfo {
  return {
    ...param,
    source: 'spec',
    ...(param.enumValues ? { enumValues: param.enumValues.map((v) => ({ ...v, source: 'spec' as const })) } : {}),
  };
}

/** A documented row: counted per IP unsigned and per account signed (§8), the label kept beside. */
function documented(row: Row): EndpointInfo {
  const { params = [], ...rest } = row;
  return {
    mode: row.signed ? 'uid' : 'ip',
    // Where the documentation states no weight (the listen key's calls), it labels none either.
    ...(row.signed && row.documentedMode === undefined && row.weightSource !== 'assumed'
      ? { documentedMode: 'ip' as const }
      : {}),
    source: 'spec',
    weightSource: 'spec',
    ...rest,
    params: [...params, ...(row.signed ? signedParams : [])].map(documentedParam),
  };
}

/** The spec's row for the same method and path, with what this deployment documents. */
function fromSpec(method: EndpointInfo['method'], path: string, changes: Partial<Row> = {}): EndpointInfo {
  const row = ENDPOINTS.find((e) => e.method === method && e.path === path)!;
  const { source: _source, weightSource: _weightSource, mode: _mode, params, ...rest } = row;
  const own = row.signed ? params.filter((x) => !signedParams.includes(x)) : params;
  return documented({ ...rest, params: own, ...changes });
}

/** `READ`/`WRITE` permission names of the documentation; a write may trade or move funds, so TradeReq asks first. */
function permit(name: string): Pick<EndpointInfo, 'permission' | 'permissionName'> {
  return { permission: name.endsWith('_WRITE') ? 'trade' : 'read', permissionName: name };
}

// Parameters several endpoints share, in this deployment's words.
const optionalSymbol = { ...symbol, required: false };
const startTime = p('startTime', 'timestampMs', 'Start of the time range, Unix time in milliseconds.');
const endTime = p('endTime', 'timestampMs', 'End of the time range, Unix time in milliseconds.');
const page = p('page', 'integer', 'Page number, from 1.', { rule: 'integer, default 1', defaultValue: '1' });
const pageSize = p('pageSize', 'integer', 'Entries on a page.', { rule: 'integer, default 10', defaultValue: '10' });

function limit(defaultValue: number, max: number): ParamInfo {
  return p('limit', 'integer', 'How many entries to return.', {
    rule: `integer, default ${defaultValue}, at most ${max}`,
    defaultValue: String(defaultValue),
  });
}

const coin = p('coin', 'string', 'Coin (asset) name, e.g. USDT.');
const asset = p('asset', 'string', 'Asset name, e.g. USDT.');
const amount = required(p('amount', 'decimal', 'Amount, a decimal number sent as text.'));
const network = p('network', 'string', 'Network (chain) name, as capital/config/getall lists it.');
const subAccount = required(p('subAccount', 'string', 'Name of the sub-account.'));
const note = required(p('note', 'string', 'A note of your own.'));
const accountTypes = values(['SPOT', 'The spot account.'], ['FUTURES', 'The futures account.']);
const accountType = (name: string, description: string): ParamInfo =>
  required(p(name, 'enum', description, { rule: 'SPOT or FUTURES', enumValues: accountTypes }));
const fromAccountType = accountType('fromAccountType', 'Account type the funds leave.');
const toAccountType = accountType('toAccountType', 'Account type the funds go to.');
const inviteCode = p('inviteCode', 'string', 'An invitation code of yours.');
const mexcListenKey = { ...listenKey, rule: '63 to 65 lower-case letters and digits' };
const withdrawStatus = p('status', 'string', 'Status code to filter by, as the answer writes it.');
const sevenDaysRule = 'milliseconds; default 7 days before endTime';

const klineIntervals = values(
  ['1m', '1 minute.'],
  ['5m', '5 minutes.'],
  ['15m', '15 minutes.'],
  ['30m', '30 minutes.'],
  ['60m', '60 minutes.'],
  ['4h', '4 hours.'],
  ['1d', '1 day.'],
  ['1W', '1 week.'],
  ['1M', '1 month.'],
);

/** The order parameters this deployment documents: the spec's without timeInForce. */
const mexcOrderParams = orderParams.filter((x) => x.name !== 'timeInForce' && !signedParams.includes(x));
const mexcBatchOrders: ParamInfo = { ...batchOrders, itemParams: mexcOrderParams, source: 'spec' };

const market: EndpointInfo[] = [
  fromSpec('GET', '/api/v3/ping'),
  fromSpec('GET', '/api/v3/time'),
  documented({
    method: 'GET',
    path: '/api/v3/defaultSymbols',
    title: 'Default symbols',
    description: 'The symbols that can be traded through the API.',
    signed: false,
    weight: 1,
  }),
  fromSpec('GET', '/api/v3/exchangeInfo'),
  documented({
    method: 'GET',
    path: '/api/v3/depth',
    title: 'Order book',
    description: 'Bids and asks of a symbol.',
    signed: false,
    weight: 1,
    params: [symbol, limit(100, 5000)],
  }),
  documented({
    method: 'GET',
    path: '/api/v3/trades',
    title: 'Recent trades',
    description: 'The latest trades of a symbol.',
    signed: false,
    weight: 5,
    params: [symbol, limit(500, 1000)],
  }),
  documented({
    method: 'GET',
    path: '/api/v3/historicalTrades',
    title: 'Older trades',
    description: 'Trades of a symbol further back.',
    signed: false,
    weight: 1,
    params: [symbol, limit(500, 1000)],
    docStatus: 'hidden',
  }),
  documented({
    method: 'GET',
    path: '/api/v3/aggTrades',
    title: 'Aggregate trades',
    description: 'Trades of a symbol, those at the same time and price as one.',
    signed: false,
    weight: 1,
    params: [symbol, startTime, endTime, limit(500, 1000)],
  }),
  documented({
    method: 'GET',
    path: '/api/v3/klines',
    title: 'Klines',
    description: 'Candlesticks of a symbol: open, high, low, close and volume per interval.',
    signed: false,
    weight: 1,
    params: [
      symbol,
      required(p('interval', 'enum', 'Length of each candlestick.', { rule: '1m … 1M', enumValues: klineIntervals })),
      startTime,
      endTime,
      limit(500, 1000),
    ],
  }),
  documented({
    method: 'GET',
    path: '/api/v3/avgPrice',
    title: 'Average price',
    description: 'The current average price of a symbol.',
    signed: false,
    weight: 1,
    params: [symbol],
  }),
  documented({
    method: 'GET',
    path: '/api/v3/ticker/24hr',
    title: '24-hour statistics',
    description: 'Price change over 24 hours, of one symbol or of all.',
    signed: false,
    weight: 1,
    weightWithout: { param: 'symbol', weight: 40 },
    params: [optionalSymbol],
  }),
  documented({
    method: 'GET',
    path: '/api/v3/ticker/price',
    title: 'Latest price',
    description: 'The latest price of one symbol or of all.',
    signed: false,
    weight: 1,
    weightWithout: { param: 'symbol', weight: 2 },
    params: [optionalSymbol],
  }),
  documented({
    method: 'GET',
    path: '/api/v3/ticker/bookTicker',
    title: 'Best bid and ask',
    description: 'The best price and quantity on each side of the book, of one symbol or of all.',
    signed: false,
    weight: 1,
    params: [optionalSymbol],
  }),
  documented({
    method: 'GET',
    path: '/api/v3/etf/info',
    title: 'ETF information',
    description: 'Net value and fees of leveraged ETF symbols.',
    signed: false,
    weight: 1,
    params: [optionalSymbol],
    docStatus: 'hidden',
  }),
];

const subAccounts: EndpointInfo[] = [
  documented({
    method: 'POST',
    path: '/api/v3/sub-account/virtualSubAccount',
    title: 'Create a sub-account',
    description: 'Creates a virtual sub-account of this account.',
    signed: true,
    weight: 1,
    ...permit('SPOT_ACCOUNT_READ'),
    params: [subAccount, note],
  }),
  documented({
    method: 'GET',
    path: '/api/v3/sub-account/list',
    title: 'Sub-accounts',
    description: 'The sub-accounts of this account.',
    signed: true,
    weight: 1,
    ...permit('SPOT_ACCOUNT_READ'),
    params: [
      { ...subAccount, required: false },
      // A boolean: the type the documentation gives, not a list whose case the check would hold against it.
      p('isFreeze', 'string', 'Only frozen (true) or only active (false) sub-accounts.', { rule: 'true or false' }),
      page,
      limit(10, 200),
    ],
  }),
  documented({
    method: 'POST',
    path: '/api/v3/sub-account/apiKey',
    title: 'Create a sub-account API key',
    description: 'Creates an API key for a sub-account.',
    signed: true,
    weight: 1,
    ...permit('SPOT_ACCOUNT_READ'),
    params: [
      subAccount,
      note,
      required(
        p('permissions', 'string', 'What the key may do: permission names, comma-separated.', {
          rule: 'SPOT_ACCOUNT_READ, SPOT_DEAL_WRITE, … comma-separated',
        }),
      ),
      p('ip', 'string', 'Addresses the key may be used from, comma-separated.', { rule: 'at most 20 addresses' }),
    ],
  }),
  documented({
    method: 'GET',
    path: '/api/v3/sub-account/apiKey',
    title: 'Sub-account API keys',
    description: 'The API keys of a sub-account.',
    signed: true,
    weight: 1,
    ...permit('SPOT_ACCOUNT_READ'),
    params: [subAccount],
  }),
  documented({
    method: 'DELETE',
    path: '/api/v3/sub-account/apiKey',
    title: 'Delete a sub-account API key',
    description: 'Deletes an API key of a sub-account.',
    signed: true,
    weight: 1,
    ...permit('SPOT_ACCOUNT_READ'),
    params: [subAccount, required(p('apiKey', 'string', 'The API key to delete.'))],
  }),
  documented({
    method: 'POST',
    path: '/api/v3/capital/sub-account/universalTransfer',
    title: 'Transfer between accounts',
    description: 'Moves an asset between this account and its sub-accounts.',
    signed: true,
    weight: 1,
    ...permit('SPOT_TRANSFER_WRITE'),
    params: [
      p('fromAccount', 'string', 'The sub-account the funds leave; omitted: this account.'),
      p('toAccount', 'string', 'The sub-account the funds go to; omitted: this account.'),
      fromAccountType,
      toAccountType,
      required(asset),
      amount,
    ],
  }),
  documented({
    method: 'GET',
    path: '/api/v3/capital/sub-account/universalTransfer',
    title: 'Transfers between accounts',
    description: 'The transfers between this account and its sub-accounts.',
    signed: true,
    weight: 1,
    ...permit('SPOT_TRANSFER_READ'),
    params: [
      p('fromAccount', 'string', 'The sub-account the funds leave; omitted: this account.'),
      p('toAccount', 'string', 'The sub-account the funds go to; omitted: this account.'),
      fromAccountType,
      toAccountType,
      startTime,
      endTime,
      page,
      limit(500, 500),
    ],
  }),
  documented({
    method: 'GET',
    path: '/api/v3/sub-account/asset',
    title: 'Sub-account assets',
    description: 'The balances of a sub-account.',
    signed: true,
    weight: 1,
    ...permit('SPOT_TRANSFER_READ'),
    params: [subAccount, accountType('accountType', 'Which account of the sub-account.')],
  }),
  documented({
    method: 'POST',
    path: '/api/v3/sub-account/futures',
    title: 'Enable futures for a sub-account',
    description: 'Opens futures trading for a sub-account.',
    signed: true,
    weight: 1,
    ...permit('SPOT_ACCOUNT_READ'),
    params: [subAccount],
    docStatus: 'hidden',
  }),
  documented({
    method: 'POST',
    path: '/api/v3/sub-account/margin',
    title: 'Enable margin for a sub-account',
    description: 'Opens margin trading for a sub-account.',
    signed: true,
    weight: 1,
    ...permit('SPOT_ACCOUNT_READ'),
    params: [subAccount],
    docStatus: 'hidden',
  }),
];

/** The order query of this deployment: its symbol is optional (the spec's requires it). */
const orderQueryParams = orderIdParams
  .filter((x) => !signedParams.includes(x))
  .map((x) => (x === symbol ? optionalSymbol : x));

const trading: EndpointInfo[] = [
  documented({
    method: 'GET',
    path: '/api/v3/kyc/status',
    title: 'KYC status',
    description: 'How far the account is verified.',
    signed: true,
    weight: 1,
    ...permit('SPOT_ACCOUNT_READ'),
  }),
  documented({
    method: 'GET',
    path: '/api/v3/selfSymbols',
    title: 'Symbols of this key',
    description: 'The symbols this API key may trade.',
    signed: true,
    weight: 1,
    ...permit('SPOT_ACCOUNT_READ'),
  }),
  fromSpec('POST', '/api/v3/order/test', { ...permit('SPOT_DEAL_WRITE'), params: mexcOrderParams }),
  fromSpec('POST', '/api/v3/order', {
    ...permit('SPOT_DEAL_WRITE'),
    params: mexcOrderParams,
    documentedMode: 'ip+uid',
    typeRequirements,
  }),
  fromSpec('POST', '/api/v3/batchOrders', {
    ...permit('SPOT_DEAL_WRITE'),
    params: [mexcBatchOrders],
    documentedMode: 'ip+uid',
  }),
  fromSpec('DELETE', '/api/v3/order', { ...permit('SPOT_DEAL_WRITE') }),
  documented({
    method: 'DELETE',
    path: '/api/v3/openOrders',
    title: 'Cancel open orders',
    description: 'Cancels every open order of up to 5 symbols.',
    signed: true,
    weight: 1,
    ...permit('SPOT_DEAL_WRITE'),
    params: [{ ...symbol, type: 'symbols', rule: 'up to 5 symbols, comma-separated' }],
  }),
  fromSpec('GET', '/api/v3/order', { ...permit('SPOT_DEAL_READ'), params: orderQueryParams }),
  fromSpec('GET', '/api/v3/openOrders', { ...permit('SPOT_DEAL_READ') }),
  documented({
    method: 'GET',
    path: '/api/v3/allOrders',
    title: 'All orders',
    description: 'Orders of a symbol, open or not.',
    signed: true,
    weight: 10,
    ...permit('SPOT_DEAL_READ'),
    params: [symbol, startTime, endTime, limit(500, 1000)],
  }),
  fromSpec('GET', '/api/v3/account', { ...permit('SPOT_ACCOUNT_READ') }),
  documented({
    method: 'GET',
    path: '/api/v3/myTrades',
    title: 'Trades of the account',
    description: 'The trades of the account in a symbol.',
    signed: true,
    weight: 10,
    ...permit('SPOT_ACCOUNT_READ'),
    params: [symbol, p('orderId', 'string', 'Only the trades of this order.'), startTime, endTime, limit(100, 100)],
  }),
  documented({
    method: 'POST',
    path: '/api/v3/mxDeduct/enable',
    title: 'Pay fees with MX',
    description: 'Turns paying trading fees with MX on or off.',
    signed: true,
    weight: 1,
    ...permit('SPOT_DEAL_WRITE'),
    params: [required(p('mxDeductEnable', 'string', 'Whether fees are paid with MX.', { rule: 'true or false' }))],
  }),
  documented({
    method: 'GET',
    path: '/api/v3/mxDeduct/enable',
    title: 'Whether fees are paid with MX',
    description: 'Whether paying trading fees with MX is on.',
    signed: true,
    weight: 1,
    ...permit('SPOT_DEAL_READ'),
  }),
  documented({
    method: 'GET',
    path: '/api/v3/tradeFee',
    title: 'Trading fees',
    description: 'The maker and taker fee rates of a symbol for this account.',
    signed: true,
    weight: 20,
    ...permit('SPOT_ACCOUNT_READ'),
    params: [symbol],
  }),
];

const withdrawParams = (networkName: string): ParamInfo[] => [
  required(coin),
  p('withdrawOrderId', 'string', 'Your own id for the withdrawal.'),
  { ...network, name: networkName },
  required(p('address', 'string', 'The address to withdraw to.')),
  p('memo', 'string', 'The memo (tag) the address needs, if any.'),
  amount,
  p('remark', 'string', 'A note of your own.'),
];

const wallet: EndpointInfo[] = [
  documented({
    method: 'GET',
    path: '/api/v3/capital/config/getall',
    title: 'Coins and networks',
    description: 'Every coin with its networks, deposit and withdrawal rules.',
    signed: true,
    weight: 10,
    ...permit('SPOT_WITHDRAW_READ'),
  }),
  documented({
    method: 'POST',
    path: '/api/v3/capital/withdraw',
    title: 'Withdraw',
    description: 'Withdraws a coin to an address.',
    signed: true,
    weight: 1,
    ...permit('SPOT_WITHDRAW_WRITE'),
    params: [
      ...withdrawParams('netWork'),
      p('contractAddress', 'string', 'The token contract address, where the network has several.'),
    ],
  }),
  documented({
    method: 'DELETE',
    path: '/api/v3/capital/withdraw',
    title: 'Cancel a withdrawal',
    description: 'Cancels a withdrawal not yet sent.',
    signed: true,
    weight: 1,
    ...permit('SPOT_WITHDRAW_WRITE'),
    params: [required(p('id', 'string', 'The id the withdrawal answered with.'))],
  }),
  documented({
    method: 'POST',
    path: '/api/v3/capital/withdraw/apply',
    title: 'Withdraw (old)',
    description: 'The older withdrawal endpoint, to be withdrawn: use POST /api/v3/capital/withdraw.',
    signed: true,
    weight: 1,
    ...permit('SPOT_WITHDRAW_WRITE'),
    params: withdrawParams('network'),
    docStatus: 'deprecated',
  }),
  documented({
    method: 'GET',
    path: '/api/v3/capital/deposit/hisrec',
    title: 'Deposits',
    description: 'The deposit history.',
    signed: true,
    weight: 1,
    ...permit('SPOT_WITHDRAW_READ'),
    params: [coin, withdrawStatus, { ...startTime, rule: sevenDaysRule }, endTime, limit(1000, 1000)],
  }),
  documented({
    method: 'GET',
    path: '/api/v3/capital/withdraw/history',
    title: 'Withdrawals',
    description: 'The withdrawal history.',
    signed: true,
    weight: 1,
    ...permit('SPOT_WITHDRAW_READ'),
    params: [coin, withdrawStatus, limit(1000, 1000), { ...startTime, rule: sevenDaysRule }, endTime],
  }),
  documented({
    method: 'POST',
    path: '/api/v3/capital/deposit/address',
    title: 'Make a deposit address',
    description: 'Makes a deposit address for a coin on a network.',
    signed: true,
    weight: 1,
    ...permit('SPOT_WITHDRAW_WRITE'),
    params: [required(coin), required(network)],
  }),
  documented({
    method: 'GET',
    path: '/api/v3/capital/deposit/address',
    title: 'Deposit addresses',
    description: 'The deposit addresses of a coin.',
    signed: true,
    weight: 10,
    ...permit('SPOT_WITHDRAW_READ'),
    params: [required(coin), network],
  }),
  documented({
    method: 'GET',
    path: '/api/v3/capital/withdraw/address',
    title: 'Withdrawal addresses',
    description: 'The saved withdrawal addresses.',
    signed: true,
    weight: 10,
    ...permit('SPOT_WITHDRAW_READ'),
    params: [coin, page, p('limit', 'integer', 'How many entries to return.')],
  }),
  documented({
    method: 'POST',
    path: '/api/v3/capital/transfer',
    title: 'Transfer between account types',
    description: 'Moves an asset between the spot and futures accounts.',
    signed: true,
    weight: 1,
    ...permit('SPOT_TRANSFER_WRITE'),
    params: [fromAccountType, toAccountType, required(asset), amount],
  }),
  documented({
    method: 'GET',
    path: '/api/v3/capital/transfer',
    title: 'Transfers between account types',
    description: 'The transfers between the spot and futures accounts.',
    signed: true,
    weight: 1,
    ...permit('SPOT_TRANSFER_READ'),
    params: [
      fromAccountType,
      toAccountType,
      startTime,
      endTime,
      page,
      p('size', 'integer', 'Entries on a page.', { rule: 'integer, default 10, at most 100', defaultValue: '10' }),
    ],
  }),
  documented({
    method: 'GET',
    path: '/api/v3/capital/transfer/tranId',
    title: 'A transfer',
    description: 'One transfer by its id.',
    signed: true,
    weight: 1,
    ...permit('SPOT_TRANSFER_READ'),
    params: [required(p('tranId', 'string', 'The id of the transfer.'))],
  }),
  documented({
    method: 'GET',
    path: '/api/v3/capital/convert/list',
    title: 'Assets convertible to MX',
    description: 'The small balances that can be converted to MX.',
    signed: true,
    weight: 1,
    ...permit('SPOT_ACCOUNT_READ'),
  }),
  documented({
    method: 'POST',
    path: '/api/v3/capital/convert',
    title: 'Convert small balances to MX',
    description: 'Converts the small balances of up to 15 assets to MX.',
    signed: true,
    weight: 10,
    ...permit('SPOT_ACCOUNT_WRITE'),
    params: [required({ ...asset, rule: 'up to 15 assets, comma-separated' })],
  }),
  documented({
    method: 'GET',
    path: '/api/v3/capital/convert',
    title: 'Conversions to MX',
    description: 'The history of small balances converted to MX.',
    signed: true,
    weight: 1,
    ...permit('SPOT_DEAL_READ'),
    params: [startTime, endTime, page, limit(1, 1000)],
  }),
  documented({
    method: 'POST',
    path: '/api/v3/capital/transfer/internal',
    title: 'Transfer to another user',
    description: 'Moves an asset to another user by email, user id or mobile number.',
    signed: true,
    weight: 1,
    ...permit('SPOT_WITHDRAW_WRITE'),
    params: [
      required(
        p('toAccountType', 'enum', 'How the receiver is named.', {
          rule: 'EMAIL, UID or MOBILE',
          enumValues: values(['EMAIL', 'By email.'], ['UID', 'By user id.'], ['MOBILE', 'By mobile number.']),
        }),
      ),
      required(p('toAccount', 'string', 'The receiver: an email, a user id or a mobile number.')),
      p('areaCode', 'string', 'The area code of a mobile number.'),
      required(asset),
      amount,
    ],
  }),
  documented({
    method: 'GET',
    path: '/api/v3/capital/transfer/internal',
    title: 'Transfers to other users',
    description: 'The history of transfers to and from other users.',
    signed: true,
    weight: 1,
    ...permit('SPOT_WITHDRAW_READ'),
    params: [
      startTime,
      endTime,
      page,
      p('limit', 'integer', 'How many entries to return.', { rule: 'integer, default 10', defaultValue: '10' }),
      p('tranId', 'string', 'The id of the transfer.'),
    ],
  }),
];

// The listen key's calls: the documentation states no weight, and no permission for PUT and DELETE.
const listenKeys: EndpointInfo[] = [
  fromSpec('POST', '/api/v3/userDataStream', { ...permit('SPOT_ACCOUNT_READ'), weightSource: 'assumed' }),
  documented({
    method: 'GET',
    path: '/api/v3/userDataStream',
    title: 'Valid listen keys',
    description: 'The listen keys of the account that are still valid.',
    signed: true,
    weight: 1,
    weightSource: 'assumed',
    ...permit('SPOT_ACCOUNT_READ'),
  }),
  fromSpec('PUT', '/api/v3/userDataStream', { params: [mexcListenKey], weightSource: 'assumed' }),
  fromSpec('DELETE', '/api/v3/userDataStream', { params: [mexcListenKey], weightSource: 'assumed' }),
];

const affiliate = (path: string, title: string, description: string, params: readonly ParamInfo[]): EndpointInfo =>
  documented({
    method: 'GET',
    path,
    title,
    description,
    signed: true,
    weight: 1,
    ...permit('SPOT_ACCOUNT_READ'),
    params,
  });

const rebates: EndpointInfo[] = [
  affiliate('/api/v3/rebate/taxQuery', 'Rebate history', 'The rebates of the account.', [startTime, endTime, page]),
  affiliate('/api/v3/rebate/detail', 'Rebate details', 'The rebates of the account, one entry each.', [
    startTime,
    endTime,
    page,
  ]),
  affiliate('/api/v3/rebate/detail/kickback', 'Own rebate details', 'The rebates paid back to the account itself.', [
    startTime,
    endTime,
    page,
  ]),
  affiliate('/api/v3/rebate/referCode', 'Referral code', 'The referral code of the account.', []),
  affiliate('/api/v3/rebate/affiliate/commission', 'Affiliate commission', 'The commission an affiliate earned.', [
    startTime,
    endTime,
    inviteCode,
    page,
    pageSize,
  ]),
  affiliate('/api/v3/rebate/affiliate/withdraw', 'Affiliate withdrawals', 'The commission an affiliate withdrew.', [
    startTime,
    endTime,
    page,
    pageSize,
  ]),
  affiliate(
    '/api/v3/rebate/affiliate/commission/detail',
    'Affiliate commission details',
    'The commission an affiliate earned, one entry each.',
    [startTime, endTime, inviteCode, page, pageSize, p('type', 'integer', 'Kind of commission, a number.')],
  ),
  affiliate('/api/v3/rebate/affiliate/campaign', 'Affiliate campaigns', 'What the campaigns of an affiliate brought.', [
    startTime,
    endTime,
    page,
    pageSize,
  ]),
  affiliate('/api/v3/rebate/affiliate/referral', 'Affiliate referrals', 'The users an affiliate referred.', [
    startTime,
    endTime,
    p('uid', 'string', 'Only this referred user.'),
    inviteCode,
    page,
    pageSize,
  ]),
  affiliate(
    '/api/v3/rebate/affiliate/subaffiliates',
    'Sub-affiliates',
    'The sub-affiliates of an affiliate and what they brought.',
    [startTime, endTime, inviteCode, page, pageSize],
  ),
];

/** Every endpoint MEXC's Spot v3 documentation names: 66 published and 4 in blocks the page hides. */
export const MEXC_ENDPOINTS: readonly EndpointInfo[] = [
  ...market,
  ...subAccounts,
  ...trading,
  ...wallet,
  ...listenKeys,
  ...rebates,
];

/** What its Spot v3 documentation leaves out, though its published Postman collection calls it. */
export const MEXC_UNDOCUMENTED: readonly UndocumentedPaths[] = [
  {
    prefix: '/api/v3/margin/',
    reason: 'the margin endpoints were withdrawn from its documentation in 2023',
  },
  {
    prefix: '/api/v3/broker/',
    reason:
      "the broker endpoints belong to its broker API, documented apart from the spot API and not in TradeReq's catalog",
  },
];
