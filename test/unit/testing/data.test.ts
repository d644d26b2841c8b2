/**
 * `# @data` files: CSV (quoting, CRLF, a BOM) and JSON read as rows of variables, every bound and
 * hostile name refused in one line (a row's columns counted as they are met), the file read only as
 * a plain file of the request file's folder or below and known by its real path, a request's case
 * expanded into one case per row, and the diagnostics the check step leaves to the shells that
 * read files.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BOUNDS } from '../../../src/core/bounds';
import { checkDocument } from '../../../src/core/check/check';
import { readOptions } from '../../../src/core/format/directives';
import { parse } from '../../../src/core/format/parser';
import { caseTitle, testCases, withRows } from '../../../src/core/testing/cases';
import { dataDiagnostics, dataLoader, loadData, parseData, type DataTable } from '../../../src/core/testing/data';
import { err, ok } from '../../../src/core/result';
import { cpuTime } from '../../support/cpu-time';

const ENV = { name: 'sandbox', baseUrl: 'http://127.0.0.1:1', variables: { side: 'BUY' } };

function rows(t: DataTable): Record<string, string>[] {
  return t.rows.map((r) => Object.fromEntries(r));
}

function table(text: string, format: 'csv' | 'json' = 'csv'): DataTable {
  const r = parseData(text, format, 'cases.' + format);
  assert.ok(r.ok, r.ok ? '' : r.error);
  return r.value;
}

function problem(text: string, format: 'csv' | 'json' = 'csv'): string {
  const r = parseData(text, format, 'cases.' + format);
  assert.ok(!r.ok, 'refused');
  return r.error;
}

describe('# @data files: CSV', () => {
  it('the header names the columns; quoted values keep commas, quotes and line breaks; CRLF and a BOM are read', () => {
    const t = table('\uFEFFsymbol,note\r\nBTCUSDT,"a, ""quoted"" value"\r\nETHUSDT,"two\r\nlines"\r\n\r\n');
    assert.deepEqual(t.columns, ['symbol', 'note']);
    assert.deepEqual(rows(t), [
      { symbol: 'BTCUSDT', note: 'a, "quoted" value' },
      { symbol: 'ETHUSDT', note: 'two\r\nlines' },
    ]);
  });

  it('a row of another length, an unclosed quote, no row, no header: one line each', () => {
    assert.match(problem('a,b\n1,2,3\n'), /^cases\.csv is not valid CSV: .*record length/i);
    assert.match(problem('a\n"open\n'), /^cases\.csv is not valid CSV: /);
    assert.match(problem('symbol\n'), /^cases\.csv has no row/);
    assert.match(problem(''), /^cases\.csv is empty/);
  });

  it('a column that is no variable name, looks like a secret, is there twice, or is __proto__ is refused', () => {
    assert.match(problem('sym bol\nx\n'), /the column "sym bol" is not a variable name/);
    assert.match(problem('$timestamp\n1\n'), /"\$timestamp" is not a variable name/);
    assert.match(problem('__proto__\n1\n'), /"__proto__" is not a variable name/);
    assert.match(problem('secretKey\nabc\n'), /"secretKey" looks like a secret/);
    assert.match(problem('a,a\n1,2\n'), /"a" is there twice/);
  });

  it('bounds: rows, columns and the length of a value', () => {
    const many = 'n\n' + '1\n'.repeat(BOUNDS.dataRows);
    assert.equal(table(many).rows.length, BOUNDS.dataRows);
    assert.match(problem(many + '1\n'), new RegExp(`more than ${BOUNDS.dataRows} rows`));
    const wide = Array.from({ length: BOUNDS.dataColumns + 1 }, (_, i) => `c${i}`).join(',');
    assert.match(problem(`${wide}\n${wide}\n`), new RegExp(`more than ${BOUNDS.dataColumns} columns`));
    assert.match(problem(`v\n${'x'.repeat(BOUNDS.dataCellChars + 1)}\n`), /row 1: the value of v is longer than 4 KiB/);
  });
});

describe('# @data files: JSON', () => {
  it('an array of flat objects: numbers and booleans as their JSON text, columns in order of first use, a BOM read', () => {
    const t = table('\uFEFF[{"symbol": "BTCUSDT", "qty": 0.001}, {"symbol": "ETHUSDT", "post": true}]', 'json');
    assert.deepEqual(t.columns, ['symbol', 'qty', 'post']);
    assert.deepEqual(rows(t), [
      { symbol: 'BTCUSDT', qty: '0.001' },
      { symbol: 'ETHUSDT', post: 'true' },
    ]);
  });

  it('not an array, a row not an object, a nested or null value, a hostile name: refused in one line', () => {
    assert.match(problem('{"symbol": "BTCUSDT"}', 'json'), /is not a JSON array of objects/);
    assert.match(problem('[1]', 'json'), /row 1 is not an object/);
    assert.match(problem('[{"a": {"b": 1}}]', 'json'), /row 1: "a" is not a string, number or boolean/);
    assert.match(problem('[{"a": null}]', 'json'), /row 1: "a" is not a string/);
    assert.match(problem('[{"__proto__": "x"}]', 'json'), /"__proto__" is not a variable name/);
    assert.match(problem('[{"apiKey": "x"}]', 'json'), /looks like a secret/);
    assert.match(problem('[', 'json'), /is not valid JSON/);
    assert.match(problem('[]', 'json'), /has no row/);
    assert.match(problem('['.repeat(200_000), 'json'), /is not valid JSON/);
  });

  it('a row of 110,000 members (1.2 MB) is refused at its 101st column, in linear time', () => {
    const members = Array.from({ length: 110_000 }, (_, i) => `"c${i}":1`).join(',');
    const { value, ms } = cpuTime(() => parseData(`[{${members}}]`, 'json', 'cases.json'));
    assert.deepEqual(value, err(`cases.json has more than ${BOUNDS.dataColumns} columns: TradeReq reads no more`));
    // Collected in quadratic time it took 12 s of CPU; linearly, a few ms (JSON.parse's): a ceiling a busy machine keeps.
    assert.ok(ms < 1_000, `${Math.round(ms)} ms of CPU`);
    const spread = JSON.stringify(Array.from({ length: BOUNDS.dataColumns + 1 }, (_, i) => ({ [`c${i}`]: 1 })));
    assert.match(problem(spread, 'json'), new RegExp(`more than ${BOUNDS.dataColumns} columns`), 'columns of all rows');
  });
});

describe('# @data files on disk', () => {
  let dir: string;
  const requestFile = (): string => join(dir, 'req', 'orders.tradereq');
  const source = (path: string) => ({
    path,
    format: 'csv' as const,
    range: { startLine: 0, startChar: 0, endLine: 0, endChar: 0 },
  });
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'tradereq-data-'));
    mkdirSync(join(dir, 'req', 'data'), { recursive: true });
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('a path with / is read relative to the request file', () => {
    writeFileSync(join(dir, 'req', 'data', 'cases.csv'), 'symbol\nBTCUSDT\n');
    const r = loadData(requestFile(), source('data/cases.csv'));
    assert.ok(r.ok);
    assert.deepEqual(rows(r.value), [{ symbol: 'BTCUSDT' }]);
  });

  it('missing, a folder, too large, not UTF-8, or a link out of the folder: refused with the reason', () => {
    assert.deepEqual(
      loadData(requestFile(), source('nope.csv')),
      err('nope.csv cannot be read (ENOENT): write the path relative to the request file'),
    );
    mkdirSync(join(dir, 'req', 'dir.csv'));
    assert.deepEqual(
      loadData(requestFile(), source('dir.csv')),
      err('dir.csv is not a plain file but a folder: TradeReq reads only plain files'),
    );
    writeFileSync(join(dir, 'req', 'big.csv'), 'a\n' + 'x'.repeat(BOUNDS.dataFileBytes));
    assert.deepEqual(
      loadData(requestFile(), source('big.csv')),
      err('big.csv is larger than TradeReq reads (1 MiB): split it'),
    );
    writeFileSync(join(dir, 'req', 'latin1.csv'), Buffer.from([0x61, 0x0a, 0xe9, 0x0a]));
    assert.deepEqual(loadData(requestFile(), source('latin1.csv')), err('latin1.csv is not UTF-8 text'));
    writeFileSync(join(dir, 'outside.csv'), 'a\n1\n');
    symlinkSync(join(dir, 'outside.csv'), join(dir, 'req', 'link.csv'));
    assert.deepEqual(
      loadData(requestFile(), source('link.csv')),
      err(
        `link.csv leads out of its folder ${realpathSync(join(dir, 'req'))} (to ${realpathSync(join(dir, 'outside.csv'))}): TradeReq reads and writes a file a repository names only inside that folder`,
      ),
    );
  });

  it('d.csv, ./d.csv and a link to it inside the folder are one file, read once', () => {
    writeFileSync(join(dir, 'req', 'd.csv'), 'symbol\nBTCUSDT\n');
    symlinkSync(join('..', 'd.csv'), join(dir, 'req', 'data', 'link.csv'));
    const load = dataLoader(requestFile());
    const first = load(source('d.csv'));
    assert.ok(first.ok && rows(first.value)[0]!['symbol'] === 'BTCUSDT', JSON.stringify(first));
    // Changed on disk: a second read would see it.
    writeFileSync(join(dir, 'req', 'd.csv'), 'symbol\nETHUSDT\n');
    assert.equal(load(source('./d.csv')), first);
    assert.equal(load(source('data/link.csv')), first);
  });

  it('the directive refuses absolute paths, `..`, backslashes, drive letters and other formats', () => {
    for (const path of [
      '/etc/passwd.csv',
      '../up.csv',
      'a/../../b.csv',
      'data\\cases.csv',
      'C:/cases.csv',
      'cases.txt',
      '{{x}}.csv',
    ]) {
      const doc = parse(`### A\n# @data ${path}\nGET /api/v3/ping\n`);
      const { options, diagnostics } = readOptions(doc, doc.requests[0]);
      assert.equal(options.data, undefined, path);
      assert.deepEqual(
        diagnostics.map((d) => d.rule),
        ['bad-directive'],
        path,
      );
    }
    const file = parse('# @data cases.csv\n### A\nGET /api/v3/ping\n');
    assert.equal(readOptions(file, file.requests[0]).options.data, undefined, 'not a file directive');
    assert.match(readOptions(file, undefined).fileDiagnostics[0]?.message ?? '', /under the `###` line of the request/);
  });
});

describe('# @data requests as test cases', () => {
  const FILE = `### Buy
# @name buy
# @data cases.csv
POST /api/v3/order
symbol = {{symbol}}
side = {{side}}

### Ping
GET /api/v3/ping
`;
  const doc = parse(FILE);
  const rowsOf = () => ok(table('symbol,side,quantity,price\nBTCUSDT,BUY,0.001,20000\n"ETH\nUSDT",SELL,0.01,1500\n'));

  it('one case per row: stable ids, labels with the columns that differ, the row as variables', () => {
    const cases = withRows(testCases(doc), rowsOf);
    assert.deepEqual(
      cases.map((c) => [c.id, c.label, caseTitle(c)]),
      [
        [
          'name:buy#row1',
          'Buy [row 1: symbol=BTCUSDT, side=BUY, quantity=0.001, …]',
          'Buy (buy) [row 1: symbol=BTCUSDT, side=BUY, quantity=0.001, …]',
        ],
        [
          'name:buy#row2',
          'Buy [row 2: symbol=ETH USDT, side=SELL, quantity=0.01, …]',
          'Buy (buy) [row 2: symbol=ETH USDT, side=SELL, quantity=0.01, …]',
        ],
        ['#2', 'Ping', 'Ping'],
      ],
    );
    assert.equal(cases[1]!.row?.values.get('price'), '1500');
  });

  it('a row is labelled by the columns whose values differ between the rows, not by the first ones; one row, or rows alike, by the first', () => {
    const labels = (csv: string): string[] =>
      withRows(testCases(doc), () => ok(table(csv)))
        .filter((c) => c.row)
        .map((c) => c.label);
    const orders = 'symbol,side,type,quantity,price\n';
    assert.deepEqual(
      labels(`${orders}BTCUSDT,BUY,LIMIT,0.001,20000\nBTCUSDT,BUY,LIMIT,0.001,21000\nBTCUSDT,SELL,LIMIT,0.001,22000\n`),
      [
        'Buy [row 1: side=BUY, price=20000]',
        'Buy [row 2: side=BUY, price=21000]',
        'Buy [row 3: side=SELL, price=22000]',
      ],
    );
    // More differing columns than a label shows: the first of them, then "…".
    assert.deepEqual(labels('a,b,c,d,e\n1,x,1,1,1\n1,y,2,2,2\n'), [
      'Buy [row 1: b=x, c=1, d=1, …]',
      'Buy [row 2: b=y, c=2, d=2, …]',
    ]);
    assert.deepEqual(labels(`${orders}BTCUSDT,BUY,LIMIT,0.001,20000\n`), [
      'Buy [row 1: symbol=BTCUSDT, side=BUY, type=LIMIT, …]',
    ]);
    assert.deepEqual(labels('symbol,side\nBTCUSDT,BUY\nBTCUSDT,BUY\n'), [
      'Buy [row 1: symbol=BTCUSDT, side=BUY]',
      'Buy [row 2: symbol=BTCUSDT, side=BUY]',
    ]);
  });

  it('the differing columns are found once a table: the labels of the largest file read each value a bounded number of times', () => {
    let reads = 0;
    // A row that counts the values read from it.
    class Row extends Map<string, string> {
      override get(key: string): string | undefined {
        reads++;
        return super.get(key);
      }
    }
    const columns = Array.from({ length: BOUNDS.dataColumns }, (_, c) => `c${c}`);
    const rows = Array.from(
      { length: BOUNDS.dataRows },
      (_, r) => new Row(columns.map((col, c) => [col, c === columns.length - 1 ? String(r) : 'same'])),
    );
    const cases = withRows(testCases(doc), () => ok({ columns, rows })).filter((c) => c.row);
    assert.equal(cases.length, BOUNDS.dataRows);
    assert.equal(cases[7]!.label, `Buy [row 8: c${BOUNDS.dataColumns - 1}=7]`);
    assert.ok(reads <= 3 * BOUNDS.dataRows * BOUNDS.dataColumns, `${reads} reads`);
  });

  it('a file that gives no rows keeps one case with the reason; a long value is clipped in the label', () => {
    const [bad] = withRows(testCases(doc), () => err('cases.csv cannot be read (ENOENT)'));
    assert.equal(bad!.dataProblem, 'cases.csv cannot be read (ENOENT)');
    const [long] = withRows(testCases(doc), () => ok(table(`symbol\n${'X'.repeat(100)}\n`)));
    assert.equal(long!.label, `Buy [row 1: symbol=${'X'.repeat(23)}…]`);
  });

  it('each data file is read once; past the bounds on data files and rows per request file, the rest is not read', () => {
    const many = parse(
      Array.from(
        { length: BOUNDS.dataFilesPerFile + 2 },
        (_, i) => `###\n# @data d${i % (BOUNDS.dataFilesPerFile + 1)}.csv\nGET /api/v3/ping`,
      ).join('\n'),
    );
    const read: string[] = [];
    const cases = withRows(testCases(many), (source) => (read.push(source.path), ok(table('n\n1\n'))));
    assert.equal(read.length, BOUNDS.dataFilesPerFile, 'no file past the bound is read, and none twice');
    assert.match(cases.at(-2)!.dataProblem ?? '', /names more than 100 data files/);
    assert.equal(cases.at(-1)!.dataProblem, undefined, 'a file already read still gives its rows');
    const big = table('n\n' + '1\n'.repeat(BOUNDS.dataRows));
    const heavy = parse(Array.from({ length: 11 }, () => '###\n# @data d.csv\nGET /api/v3/ping').join('\n'));
    const rows = withRows(testCases(heavy), () => ok(big));
    assert.equal(rows.filter((c) => c.row).length, BOUNDS.dataCasesPerFile);
    assert.match(rows.at(-1)!.dataProblem ?? '', /more than 10000 rows in all/);
  });

  it('check: the data columns are not undefined variables; dataDiagnostics reports the file and the names no column defines', () => {
    const found = checkDocument(doc, { environment: ENV }).filter((d) => d.rule === 'undefined-variable');
    assert.deepEqual(found, [], 'the check step leaves {{symbol}} to the data file');
    const withNote = parse(FILE.replace('side = {{side}}', 'side = {{side}}\nnote = {{note}}'));
    const diagnostics = dataDiagnostics(withNote, '/x/orders.tradereq', ENV, () => ok(table('symbol\nBTCUSDT\n')));
    assert.deepEqual(
      diagnostics.map((d) => [d.rule, d.range.startLine, d.message.slice(0, 40)]),
      [['undefined-variable', 6, 'Undefined variable {{note}}: it is no co']],
    );
    // Issue 34, point 2: a # @expect line reads the row too; a name of no column is reported there.
    const expecting = parse(
      FILE.replace('# @data', '# @expect json symbol == {{symbol}}\n# @expect json side == {{sid}}\n# @data'),
    );
    assert.deepEqual(
      checkDocument(expecting, { environment: ENV }).filter((d) => d.rule === 'undefined-variable'),
      [],
      'the check step leaves them to the data file',
    );
    assert.deepEqual(
      dataDiagnostics(expecting, '/x/orders.tradereq', ENV, () => ok(table('symbol\nBTCUSDT\n'))).map((d) => [
        d.rule,
        d.message.slice(0, 27),
      ]),
      [['undefined-variable', 'Undefined variable {{sid}}:']],
    );
    const missing = dataDiagnostics(doc, '/x/orders.tradereq', ENV, () => err('cases.csv cannot be read (ENOENT)'));
    assert.deepEqual(
      missing.map((d) => [d.rule, d.range.startLine, d.range.startChar, d.message]),
      [['data-file', 2, 8, 'cases.csv cannot be read (ENOENT)']],
    );
  });
});
