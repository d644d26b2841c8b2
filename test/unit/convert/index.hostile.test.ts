/**
 * Issue 18, second round: what the importers (src/core/convert/) must never write, whatever they
 * are given. No credential reaches a file, a tradereq.env.json or the summary (parameters,
 * variables, JSON members, script lines that set one); long lists are refused in one line instead
 * of overflowing the stack; and the files written have names every system can hold.
 */
import assert from 'node:assert/strict';
import { BOUNDS } from '../../../src/core/bounds';
import { importCurl, importHttpFile, importPostman, type ImportResult } from '../../../src/core/convert';
import { assertClean, assertRefused, imported, onlyEnvironment, paramsOf } from '../../fixtures/convert/harness';
import { cpuTime } from '../../support/cpu-time';

/** Values no output may hold, however they are spelled in the source. */
const SECRETS = [
  'K3yValueMustNotBeCopied0001',
  'S3cretValueMustNotBeCopied0002',
  'Passw0rdValueMustNotBeCopied03',
  'T0kenValueMustNotBeCopied00004',
  'Phr4seValueMustNotBeCopied0005',
  'L1stenKeyValueMustNotBeCopied6',
  'Scr1ptSecretMustNotBeCopied007',
  'Scr1ptApiSecretNotCopied000008',
  'JetBr4insTokenNotCopied0000009',
  'HttpY4cSecretNotCopied00000010',
  'C0mmentSecretNotCopied00000011',
  'EnvS3cretNotCopied0000000000012',
];

/** Everything an import hands back: files, environment and notes. */
function assertNoSecret(result: ImportResult): void {
  const everything = JSON.stringify(result);
  for (const s of SECRETS) assert.ok(!everything.includes(s), `${s} was copied:\n${everything.slice(0, 3000)}`);
}

function noteNaming(result: ImportResult, name: string): void {
  assert.ok(
    result.notes.some((n) => n.includes(`"${name}"`)),
    `no note names "${name}":\n${result.notes.join('\n')}`,
  );
}

function postman(items: unknown[], extra: Record<string, unknown> = {}, name = 'Hostile'): string {
  return JSON.stringify({
    info: { name, schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json' },
    item: items,
    ...extra,
  });
}

describe('import: no credential is carried over (issue 18, section 3)', () => {
  it('cURL: query and body parameters named like credentials are dropped, named in the notes, their values nowhere', () => {
    const r = imported(
      importCurl(
        `curl "https://api.example.com/api/v3/account?apiKey=${SECRETS[0]}&secretKey=${SECRETS[1]}&symbol=BTCUSDT" ` +
          `-X POST -d "Pass-Word=${SECRETS[2]}&quantity=1" --data-urlencode "ACCESS_TOKEN=${SECRETS[3]}" ` +
          `-d "pass_phrase=${SECRETS[4]}&listen.key=${SECRETS[5]}"`,
      ),
    );
    assertNoSecret(r);
    const text = r.files[0]!.text;
    assert.deepEqual(paramsOf(text), ['symbol=BTCUSDT [query]', 'quantity=1 [body]']);
    for (const name of ['apiKey', 'secretKey', 'Pass-Word', 'ACCESS_TOKEN', 'pass_phrase', 'listen.key'])
      noteNaming(r, name);
  });

  it('cURL: the members of a JSON body named like credentials are dropped, at any depth', () => {
    const r = imported(
      importCurl(
        `curl https://api.example.com/api/v3/order --json '{"symbol":"BTCUSDT","api_key":"${SECRETS[0]}","auth":{"secret":"${SECRETS[1]}"},"legs":[{"Token":"${SECRETS[3]}","qty":"1"}]}'`,
      ),
    );
    assertNoSecret(r);
    assert.match(r.files[0]!.text, /^\{"symbol":"BTCUSDT","legs":\[\{"qty":"1"\}\]\}$/m);
    for (const name of ['api_key', 'auth', 'Token']) noteNaming(r, name);
  });

  it('cURL: a JSON body that cannot be read and sets a credential is left out as a whole', () => {
    const r = imported(
      importCurl(`curl https://api.example.com/api/v3/order --json '{"symbol":"BTCUSDT", "apiKey": "${SECRETS[0]}",}'`),
    );
    assertNoSecret(r);
    assert.doesNotMatch(r.files[0]!.text, /BTCUSDT/);
    noteNaming(r, 'apiKey');
  });

  it(`cURL: a JSON body nested past ${BOUNDS.prettyJsonDepth} levels that sets a credential is left out as a whole, not written again (issue 31)`, () => {
    for (const levels of [BOUNDS.prettyJsonDepth + 1, 10_000]) {
      const deep = `${'['.repeat(levels)}${']'.repeat(levels)}`;
      const r = imported(
        importCurl(
          `curl https://api.example.com/api/v3/order --json '{"symbol":"BTCUSDT","apiKey":"${SECRETS[0]}","x":${deep}}'`,
        ),
      );
      assertNoSecret(r);
      assert.doesNotMatch(r.files[0]!.text, /BTCUSDT/, `${levels} levels`);
      noteNaming(r, 'apiKey');
    }
  });

  it('cURL: signature and timestamp still become TradeReq signing (# @signed), not a dropped credential', () => {
    const r = imported(
      importCurl(
        `curl "https://api.example.com/api/v3/unknownSigned?symbol=BTCUSDT&timestamp=1&signature=abcdef&apiKey=${SECRETS[0]}"`,
      ),
    );
    assertNoSecret(r);
    const text = r.files[0]!.text;
    assert.match(text, /^# @signed$/m);
    assert.match(text, /^# signature and timestamp are left out/m);
    assert.deepEqual(paramsOf(text), ['symbol=BTCUSDT [query]']);
    assert.ok(!r.notes.some((n) => n.includes('"signature"')), r.notes.join('\n'));
  });

  it('.http: query, form body and file variables named like credentials are dropped; script and comment lines that set one are not kept', () => {
    const source = [
      `@api-key = ${SECRETS[0]}`,
      `@Secret_Key = ${SECRETS[1]}`,
      '@symbol = BTCUSDT',
      '{{',
      `  exports.apiSecret = "${SECRETS[9]}";`,
      '  exports.startedAt = Date.now();',
      '}}',
      '',
      '### account',
      '< {%',
      `    client.global.set("token", "${SECRETS[8]}");`,
      '    request.variables.set("note", "kept");',
      '%}',
      `# my password: ${SECRETS[10]}`,
      `GET https://api.example.com/api/v3/account?symbol={{symbol}}&API_KEY=${SECRETS[0]}`,
      '',
      '### order',
      'POST https://api.example.com/api/v3/order',
      'Content-Type: application/x-www-form-urlencoded',
      '',
      `symbol=BTCUSDT&side=BUY&secretKey=${SECRETS[1]}&type=MARKET&quantity=1`,
    ].join('\n');
    const r = imported(importHttpFile(source, { sourceName: 'hostile.http' }));
    assertNoSecret(r);
    const text = r.files[0]!.text;
    assert.deepEqual(paramsOf(text, 0), ['symbol={{symbol}} [query]']);
    assert.deepEqual(paramsOf(text, 1), [
      'symbol=BTCUSDT [body]',
      'side=BUY [body]',
      'type=MARKET [body]',
      'quantity=1 [body]',
    ]);
    assert.match(text, /exports\.startedAt = Date\.now\(\);/, 'the lines that set no credential stay');
    assert.match(text, /request\.variables\.set\("note", "kept"\);/);
    for (const name of ['API_KEY', 'secretKey', 'exports.apiSecret', 'token', 'password']) noteNaming(r, name);
    assertClean(text);
  });

  it('Postman: path variables and descriptions of requests and folders that hold a credential are not copied', () => {
    const r = imported(
      importPostman(
        postman([
          {
            name: 'Keys',
            description: `Folder notes.\napi_secret: ${SECRETS[1]}`,
            item: [
              {
                name: 'Key info',
                request: {
                  method: 'GET',
                  description: `Call it with\n"token": "${SECRETS[3]}"`,
                  url: {
                    raw: 'https://api.example.com/api/v3/keys/:apiKey/:symbol',
                    variable: [
                      { key: 'apiKey', value: SECRETS[0] },
                      { key: 'symbol', value: 'BTCUSDT' },
                    ],
                  },
                },
              },
            ],
          },
        ]),
      ),
    );
    assertNoSecret(r);
    assert.match(r.files[0]!.text, /^GET \/api\/v3\/keys\/\{\{apiKey\}\}\/BTCUSDT$/m);
    assert.match(r.files[0]!.text, /^# Folder notes\.$/m);
    for (const name of ['apiKey', 'api_secret', 'token']) noteNaming(r, name);
  });

  it('Postman: parameters, collection and environment variables named like credentials are dropped, and script lines that set one, in every file', () => {
    const scripts = [
      `pm.environment.set("secret", "${SECRETS[6]}");`,
      `const apiSecret = '${SECRETS[7]}';`,
      'console.log("kept");',
    ];
    const collection = postman(
      [
        {
          name: 'Orders',
          event: [{ listen: 'test', script: { exec: scripts } }],
          item: [
            {
              name: 'New order',
              event: [{ listen: 'prerequest', script: { exec: scripts } }],
              request: {
                method: 'POST',
                url: {
                  raw: 'https://api.example.com/api/v3/order',
                  query: [
                    { key: 'symbol', value: 'BTCUSDT' },
                    { key: 'api_key', value: SECRETS[0] },
                    { key: 'Secret-Key', value: SECRETS[1], disabled: true },
                  ],
                },
                body: {
                  mode: 'urlencoded',
                  urlencoded: [
                    { key: 'quantity', value: '1' },
                    { key: 'passphrase', value: SECRETS[4] },
                  ],
                },
              },
            },
          ],
        },
      ],
      {
        event: [{ listen: 'prerequest', script: { exec: scripts } }],
        variable: [
          { key: 'symbol', value: 'BTCUSDT' },
          { key: 'pass_word', value: SECRETS[2] },
        ],
      },
    );
    const environment = JSON.stringify({
      name: 'Hostile',
      values: [
        { key: 'recvWindow', value: '5000' },
        { key: 'listen_key', value: SECRETS[5] },
        { key: 'Client-Secret', value: SECRETS[11] },
      ],
    });
    const r = imported(importPostman(collection, environment));
    assertNoSecret(r);
    const text = r.files[0]!.text;
    assert.deepEqual(paramsOf(text), ['symbol=BTCUSDT [query]', 'quantity=1 [body]']);
    assert.match(text, /console\.log\("kept"\);/);
    assert.deepEqual(onlyEnvironment(r.environment).variables, { recvWindow: '5000' });
    for (const name of ['api_key', 'passphrase', 'secret', 'apiSecret']) noteNaming(r, name);
  });
});

describe('import: long lists are bounded (issue 18, section 4)', () => {
  const { paramsPerRequest, headersPerRequest } = BOUNDS;

  it(`cURL: ${paramsPerRequest} query parameters are imported; 130,000 are refused in one line, no stack overflow`, () => {
    const query = (n: number): string => Array.from({ length: n }, (_, i) => `p${i}=${i}`).join('&');
    const ok = imported(importCurl(`curl "https://api.example.com/api/v3/ticker/price?${query(paramsPerRequest)}"`));
    assert.equal(paramsOf(ok.files[0]!.text).length, paramsPerRequest);
    assertRefused(
      importCurl(`curl "https://api.example.com/api/v3/ticker/price?${query(130_000)}"`),
      new RegExp(`130000 parameters, more than the ${paramsPerRequest}`),
    );
  });

  it(`cURL: 150,000 -H options are refused in one line (more than ${headersPerRequest} headers)`, () => {
    const headers = Array.from({ length: 150_000 }, (_, i) => `-H 'X-H${i}: ${i}'`).join(' ');
    assertRefused(
      importCurl(`curl https://api.example.com/api/v3/time ${headers}`),
      new RegExp(`150000 headers, more than the ${headersPerRequest}`),
    );
  });

  it('cURL: 150,000 -H options given as words (after --) are refused the same way', () => {
    const words = ['curl', 'https://api.example.com/api/v3/time'];
    for (let i = 0; i < 150_000; i++) words.push('-H', `X-H${i}: ${i}`);
    assertRefused(importCurl(words), /150000 headers/);
  });

  it('a signed cURL command with many parameters is read without spreading them (signing keeps the rest)', () => {
    const query = Array.from({ length: 200_000 }, (_, i) => `p${i}=1`).join('&');
    assertRefused(
      importCurl(`curl "https://api.example.com/api/v3/order?${query}&timestamp=1&signature=ab"`),
      /200000 parameters/,
    );
  });

  it('Postman: a script of 200,000 lines is kept as comments (nothing spread onto the stack)', () => {
    const exec = Array.from({ length: 200_000 }, () => '');
    exec[0] = 'console.log(1);';
    const r = imported(
      importPostman(
        postman([{ name: 'Ping', request: { method: 'GET', url: 'https://api.example.com/api/v3/ping' } }], {
          event: [{ listen: 'prerequest', script: { exec } }],
        }),
      ),
    );
    assert.ok(r.files[0]!.text.split('\n').length > 200_000);
  });

  it(`.http: a WebSocket request of 20,000 messages or streams is refused in one line (more than ${paramsPerRequest}), in bounded time`, () => {
    const messages = 'WS wss://api.example.com/ws\n\n' + '===\n{"method": "PING"}\n'.repeat(20_000);
    const m = cpuTime(() => importHttpFile(messages));
    assertRefused(m.value, new RegExp(`20000 stream names and messages, more than the ${paramsPerRequest}`));
    const streams = Array.from({ length: 20_000 }, (_, i) => `"spot@public.deals.v3.api@S${i}"`).join(',');
    const s = cpuTime(() =>
      importHttpFile(`WS wss://api.example.com/ws\n\n{"method": "SUBSCRIPTION", "params": [${streams}]}\n`),
    );
    assertRefused(s.value, /20000 stream names and messages/);
    for (const t of [m.ms, s.ms]) assert.ok(t < 3000, `took ${Math.round(t)} ms of CPU time`);
  });

  it('.http: 200,000 comment lines at the top are kept (nothing spread onto the stack)', () => {
    const r = imported(importHttpFile('#\n'.repeat(200_000) + 'GET https://api.example.com/api/v3/ping\n'));
    assert.equal(r.requestCount, 1);
  });
});

/** Windows refuses these as file names (with any extension, in any case), and names that end in a dot or space. */
const WINDOWS_RESERVED = /^(con|prn|aux|nul|conin\$|conout\$|com[0-9¹²³]|lpt[0-9¹²³])(\..*)?$/i;

function assertPortable(path: string): void {
  assert.ok(path.length > 0 && path.length <= 128, `length of ${JSON.stringify(path)}`);
  // eslint-disable-next-line no-control-regex
  assert.doesNotMatch(path, /[<>:"/\\|?*\u0000-\u001f\u007f]/, `characters of ${JSON.stringify(path)}`);
  assert.doesNotMatch(path, /[. ]$/, `end of ${JSON.stringify(path)}`);
  assert.doesNotMatch(path.split('.')[0]!.trimEnd(), WINDOWS_RESERVED, `reserved: ${JSON.stringify(path)}`);
  assert.doesNotMatch(path, WINDOWS_RESERVED, `reserved: ${JSON.stringify(path)}`);
}

describe('import: file names every system can hold (issue 18, section 4)', () => {
  it('Postman: folders and collections named CON, nul, Aux, com1, LPT9, COM¹ give portable, distinct file names', () => {
    const ping = (name: string): unknown => ({
      name,
      request: { method: 'GET', url: 'https://api.example.com/api/v3/ping' },
    });
    const names = ['CON', 'nul', 'Aux', 'com1', 'LPT9', 'COM¹', 'prn', 'conin$', 'Con.txt', 'nul ', 'con-1'];
    const r = imported(importPostman(postman([ping('root'), ...names.map((n) => ({ name: n, item: [ping(n)] }))])));
    const collectionNamed = imported(importPostman(postman([ping('root')], {}, 'NUL')));
    const paths = [...r.files, ...collectionNamed.files].map((f) => f.path);
    for (const p of paths) assertPortable(p);
    const lower = r.files.map((f) => f.path.toLowerCase());
    assert.equal(new Set(lower).size, lower.length, `distinct: ${lower.join(', ')}`);
  });

  it('.http: a source named con.http, aux.rest, a<b>:c|d?.http or "name. .http" gives a portable file name', () => {
    for (const sourceName of [
      'con.http',
      'AUX.rest',
      'Lpt1.http',
      'a<b>:c|d?*".http',
      'name. .http',
      'tab\there.http',
      '.http',
    ]) {
      const r = imported(importHttpFile('GET https://api.example.com/api/v3/ping\n', { sourceName }));
      assertPortable(r.files[0]!.path);
      assert.match(r.files[0]!.path, /\.tradereq$/);
    }
  });

  it('.http: the file is named after its source, or as asked when that name is portable', () => {
    const ping = 'GET https://api.example.com/api/v3/ping\n';
    assert.equal(imported(importHttpFile(ping, { sourceName: 'orders.http' })).files[0]!.path, 'orders.tradereq');
    assert.equal(imported(importHttpFile(ping, { fileName: 'mine.tradereq' })).files[0]!.path, 'mine.tradereq');
  });
});
