// Copy as Code and the imports in the real extension host: the code lens, the program on the clipboard
// (run here against the sandbox, with the keys in its environment only), Import from cURL (given, and
// from the clipboard), Import Postman Collection and Import .http File with their files written and
// opened, and bad input refused with nothing written. Pasting a cURL command needs a real paste
// (a keystroke): test/ui/paste-curl.test.js does it in the workbench.
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { startSandbox, SANDBOX_KEYS, type Sandbox } from '../../src/sandbox';
import type { ImportOutcome } from '../../src/extension/import-commands';
import { EXTENSION_ID, tradereqApi, withDeadline } from './helpers';

/** The import fixtures, in the repository the extension under test is loaded from. */
function convertFixture(...parts: string[]): vscode.Uri {
  const repo = vscode.extensions.getExtension(EXTENSION_ID)!.extensionPath;
  return vscode.Uri.file(path.join(repo, 'test', 'fixtures', 'convert', ...parts));
}
const DEMO = SANDBOX_KEYS.find((k) => k.name === 'trade')!;

const ORDERS = `### Buy at a limit price
# @name buy
POST /api/v3/order
symbol = BTCUSDT
side = BUY
type = LIMIT
quantity = 0.001
price = 30000
newClientOrderId = {{$clientOrderId}}

### Query it
GET /api/v3/order
symbol = BTCUSDT
orderId = {{buy.response.orderId}}
`;

const CURL =
  "curl -H 'X-SERVICE-APIKEY: integrationKeyNeverCopied000000000001' -X POST " +
  "'http://127.0.0.1:8780/api/v3/order?symbol=BTCUSDT&side=SELL&type=LIMIT&quantity=0.002&price=90000&timestamp=1700000000000&signature=abc'";

/** Runs a generated Node program with `env` (and nothing of TRADEREQ_* from this process): stdout, exit code. */
function runNode(
  file: string,
  env: Record<string, string>,
  args: string[] = [],
): Promise<{ stdout: string; code: number | null }> {
  const base: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('TRADEREQ_')) base[k] = v;
  // The extension host's own binary; Electron's runs as Node with ELECTRON_RUN_AS_NODE.
  const child = spawn(process.execPath, [file, ...args], {
    env: { ...base, ...env, ELECTRON_RUN_AS_NODE: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  return withDeadline(
    new Promise((resolve) => child.on('close', (code) => resolve({ stdout, code }))),
    30_000,
    `${file} to finish`,
  );
}

async function untitled(content: string): Promise<vscode.TextDocument> {
  const doc = await vscode.workspace.openTextDocument({ language: 'tradereq', content });
  await vscode.window.showTextDocument(doc);
  return doc;
}

suite('Copy as Code and import, in the real extension host', () => {
  let sandbox: Sandbox;
  let tmp: string;

  suiteSetup(async () => {
    await tradereqApi();
    sandbox = await startSandbox({ port: 0 });
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'tradereq-codegen-import-'));
  });

  suiteTeardown(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('notifications.clearAll');
    await sandbox?.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  test('a Copy as Code lens stands above every request, beside Send, for that request', async () => {
    const doc = await untitled(ORDERS);
    const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', doc.uri);
    const code = lenses.filter((l) => l.command?.command === 'tradereq.copyAsCode');
    assert.deepEqual(
      code.map((l): unknown[] => {
        const args = (l.command?.arguments ?? []) as [vscode.Uri, number];
        return [l.command?.title, args[0].toString(), args[1]];
      }),
      [
        ['Copy as Code', doc.uri.toString(), 0],
        ['Copy as Code', doc.uri.toString(), 1],
      ],
    );
    const send = lenses.filter((l) => l.command?.command === 'tradereq.sendRequest');
    assert.deepEqual(
      code.map((l) => l.range.start.line),
      send.map((l) => l.range.start.line),
    );
  });

  test('Copy as Code puts a program on the clipboard that holds no key, signs when it runs and gets 200 from the sandbox', async () => {
    const doc = await untitled(ORDERS);
    const program = await vscode.commands.executeCommand<string | undefined>('tradereq.copyAsCode', doc.uri, 0, 'node');
    assert.ok(program, 'a program was made');
    assert.equal(await vscode.env.clipboard.readText(), program, 'the program is on the clipboard');
    for (const key of [DEMO.apiKey, DEMO.secretKey]) assert.ok(!program.includes(key), 'no key in the program');
    assert.match(
      program,
      /^const SECRET_KEY_ENV = "TRADEREQ_SANDBOX_SECRET_KEY";$/m,
      'the secret key is read from the environment',
    );
    assert.match(program, /createHmac\("sha256", secretKey\)/, 'and used to sign when the program runs');
    const file = path.join(tmp, 'buy.mjs');
    fs.writeFileSync(file, program);
    const keys = { TRADEREQ_SANDBOX_API_KEY: DEMO.apiKey, TRADEREQ_SANDBOX_SECRET_KEY: DEMO.secretKey };
    const run = await runNode(file, { ...keys, TRADEREQ_BASE_URL: sandbox.baseUrl });
    assert.equal(run.code, 0, run.stdout);
    const [status, ...body] = run.stdout.split('\n');
    assert.equal(status, '200');
    const order = JSON.parse(body.join('\n')) as { orderId: unknown; clientOrderId: string };
    assert.match(order.clientOrderId, /^[A-Za-z0-9]{32}$/, 'a client order id made when it ran');

    // The next request reads the order's id: the program takes it as its argument.
    const query = await vscode.commands.executeCommand<string>('tradereq.copyAsCode', doc.uri, 1, 'node');
    fs.writeFileSync(path.join(tmp, 'query.mjs'), query);
    const queried = await runNode(path.join(tmp, 'query.mjs'), { ...keys, TRADEREQ_BASE_URL: sandbox.baseUrl }, [
      String(order.orderId),
    ]);
    assert.equal(queried.stdout.split('\n')[0], '200', queried.stdout);
    assert.equal(
      String((JSON.parse(queried.stdout.split('\n').slice(1).join('\n')) as { orderId: unknown }).orderId),
      String(order.orderId),
    );
  });

  test('Copy as Code of an order for a "confirm": true environment copies a program that asks first, and refuses without a terminal or --yes', async () => {
    const folder = path.join(tmp, 'guarded');
    fs.mkdirSync(folder, { recursive: true });
    const environments = { guarded: { baseUrl: sandbox.baseUrl, key: 'sandbox', confirm: true } };
    fs.writeFileSync(path.join(folder, 'tradereq.env.json'), JSON.stringify(environments));
    fs.writeFileSync(path.join(folder, 'orders.tradereq'), ORDERS);
    const uri = vscode.Uri.file(path.join(folder, 'orders.tradereq'));
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri));
    const program = await vscode.commands.executeCommand<string | undefined>('tradereq.copyAsCode', uri, 0, 'node');
    assert.ok(program, 'a program was made');
    assert.equal(await vscode.env.clipboard.readText(), program, 'the program is on the clipboard');
    assert.match(
      program,
      /^\/\/ Asks before sending, as tradereq send asks: environment "guarded" has "confirm": true\.$/m,
    );
    assert.match(
      program,
      /^await confirm\("POST \/api\/v3\/order: symbol BTCUSDT, side BUY, type LIMIT, quantity 0\.001, price 30000", yes\);$/m,
    );
    const before = ((await (await fetch(`${sandbox.baseUrl}/_sandbox/requests`)).json()) as unknown[]).length;
    const file = path.join(tmp, 'guarded.mjs');
    fs.writeFileSync(file, program);
    const keys = { TRADEREQ_SANDBOX_API_KEY: DEMO.apiKey, TRADEREQ_SANDBOX_SECRET_KEY: DEMO.secretKey };
    const refused = await runNode(file, keys);
    assert.equal(refused.code, 4, refused.stdout);
    assert.equal(refused.stdout, '', 'no status: nothing was sent');
    const after = ((await (await fetch(`${sandbox.baseUrl}/_sandbox/requests`)).json()) as unknown[]).length;
    assert.equal(after, before, 'nothing reached the sandbox');
  });

  test('Copy as Code of a request that cannot become a program copies nothing', async () => {
    await vscode.env.clipboard.writeText('before');
    const doc = await untitled('WS /ws\n[subscribe]\nspot@public.deals.v3.api@BTCUSDT\n');
    assert.equal(await vscode.commands.executeCommand('tradereq.copyAsCode', doc.uri, 0, 'python'), undefined);
    assert.equal(await vscode.env.clipboard.readText(), 'before');
  });

  test('Import from cURL adds the request at the end of the active .tradereq file; signature, timestamp and key dropped', async () => {
    const doc = await untitled('# My requests\n');
    const outcome = await vscode.commands.executeCommand<ImportOutcome>('tradereq.importCurl', CURL);
    assert.deepEqual(outcome.files, [doc.uri.toString()]);
    const text = doc.getText();
    assert.match(text, /^# My requests\n\n# Imported from a cURL command/);
    assert.match(
      text,
      /^POST \/api\/v3\/order\n\[query\]\nsymbol = BTCUSDT\nside = SELL\ntype = LIMIT\nquantity = 0\.002\nprice = 90000$/m,
    );
    assert.doesNotMatch(text, /signature =|timestamp =|integrationKeyNeverCopied/);
  });

  test('Import from cURL without an argument reads the clipboard and opens the request in a new file', async () => {
    // No .tradereq file active (closing the earlier tests' untitled files would ask to save them).
    const other = await vscode.workspace.openTextDocument({ language: 'plaintext', content: '' });
    await vscode.window.showTextDocument(other);
    await vscode.env.clipboard.writeText(CURL);
    const outcome = await vscode.commands.executeCommand<ImportOutcome>('tradereq.importCurl');
    const doc = vscode.window.activeTextEditor?.document;
    assert.ok(doc);
    assert.equal(doc.languageId, 'tradereq');
    assert.deepEqual(outcome.files, [doc.uri.toString()]);
    assert.match(doc.getText(), /^quantity = 0\.002$/m);
  });

  test('Import Postman Collection writes one file per folder and tradereq.env.json, opens the first, and reports what it could not carry over', async () => {
    const out = vscode.Uri.file(path.join(tmp, 'postman'));
    const outcome = await vscode.commands.executeCommand<ImportOutcome>(
      'tradereq.importPostman',
      convertFixture('postman', 'exchange.postman_collection.json'),
      out,
      convertFixture('postman', 'exchange.postman_environment.json'),
    );
    const names = outcome.files.map((f) => path.basename(vscode.Uri.parse(f).fsPath));
    assert.deepEqual(names, [
      'market-data.tradereq',
      'trade-orders.tradereq',
      'trade.tradereq',
      'account.tradereq',
      'example-exchange-spot-api.tradereq',
      'tradereq.env.json',
    ]);
    for (const name of names) assert.ok(fs.existsSync(path.join(out.fsPath, name)), name);
    assert.equal(vscode.window.activeTextEditor?.document.uri.fsPath, path.join(out.fsPath, 'market-data.tradereq'));
    assert.ok(outcome.notes.length > 0, 'the collection has scripts and disabled parameters to report');
    const all = names.map((n) => fs.readFileSync(path.join(out.fsPath, n), 'utf8')).join('\n');
    assert.doesNotMatch(all, /fixtureApiKeyValue|fixtureSecretValue/, 'no secret of the environment is copied');
  });

  test('Import .http File writes NAME.tradereq into the folder and opens it', async () => {
    const out = vscode.Uri.file(path.join(tmp, 'http'));
    const outcome = await vscode.commands.executeCommand<ImportOutcome>(
      'tradereq.importHttp',
      convertFixture('http', 'rest-client.http'),
      out,
    );
    const file = path.join(out.fsPath, 'rest-client.tradereq');
    assert.deepEqual(outcome.files, [vscode.Uri.file(file).toString()]);
    assert.equal(vscode.window.activeTextEditor?.document.uri.fsPath, file);
    assert.match(fs.readFileSync(file, 'utf8'), /^# @name placeOrder$/m);
    assert.ok(
      outcome.notes.some((n) => /^rest-client\.http:\d+: /.test(n)),
      outcome.notes.join('\n'),
    );
  });

  test('Import .http File of one request says "1 request"; a @host its URLs became paths under stays in the file, and the notes say so', async () => {
    const source = path.join(tmp, 'one.http');
    fs.writeFileSync(source, '@host = http://127.0.0.1:8780\n\n### Ping\nGET {{host}}/api/v3/ping\n');
    const out = vscode.Uri.file(path.join(tmp, 'one'));
    const outcome = await vscode.commands.executeCommand<ImportOutcome>(
      'tradereq.importHttp',
      vscode.Uri.file(source),
      out,
    );
    assert.equal(outcome.headline, `imported 1 request into ${out.path}: one.tradereq.`);
    assert.match(
      fs.readFileSync(path.join(out.fsPath, 'one.tradereq'), 'utf8'),
      /^@host = http:\/\/127\.0\.0\.1:8780$/m,
    );
    assert.ok(
      outcome.notes.some((n) => n.startsWith('@host = http://127.0.0.1:8780 stays in the file;')),
      outcome.notes.join('\n'),
    );
  });

  test('bad input: nothing imported, nothing written', async () => {
    const doc = await untitled('# unchanged\n');
    assert.equal(await vscode.commands.executeCommand('tradereq.importCurl', 'curl -X POST'), undefined);
    const notJson = path.join(tmp, 'not-json.json');
    fs.writeFileSync(notJson, 'this is not a collection');
    const out = path.join(tmp, 'nothing');
    assert.equal(
      await vscode.commands.executeCommand('tradereq.importPostman', vscode.Uri.file(notJson), vscode.Uri.file(out)),
      undefined,
    );
    assert.ok(!fs.existsSync(out), 'no folder was made');
    assert.equal(vscode.window.activeTextEditor?.document, doc, 'no document was opened');
    assert.equal(doc.getText(), '# unchanged\n', 'nothing was added');
  });
});
