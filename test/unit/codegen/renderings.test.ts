/**
 * Issue 20, Copy as code: what the languages write by kind (a value's pieces, the body, the
 * program's functions) is one walk (src/core/codegen/renderings.ts) over a table each language
 * fills, an entry a kind; no language file keeps a copy of the switch. The program's model has a
 * file name of its own. The programs themselves are checked in codegen/index.test.ts and test/e2e/codegen-*.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Piece } from '../../../src/core/codegen';
import { planProgram } from '../../../src/core/codegen/plan';
import {
  bodyStatements,
  makePieces,
  pieceHelpers,
  pieceImports,
  programFunctions,
  renderValue,
  type BodyStatements,
  type ValueRenderings,
} from '../../../src/core/codegen/renderings';
import { codeRequest, JSON_TYPE, pairs, value } from '../../fixtures/codegen/cases';

const CODEGEN = resolve(__dirname, '..', '..', '..', 'src', 'core', 'codegen');
const BASE = 'http://127.0.0.1:8780';

/** A language of the test's own, so that each entry shows where it lands. */
const TOY: ValueRenderings = {
  empty: 'EMPTY',
  join: ' ~ ',
  apiKey: 'KEY',
  text: (p, inHeader) => (inHeader ? `h(${p.text})` : `t(${p.text})`),
  parameter: (p) => `arg(${p.parameter})`,
  timestamp: { variable: 'ts', make: 'make ts', helper: 'fn ts', imports: ['clock', 'common'] },
  clientOrderId: { variable: 'id', make: 'make id', helper: 'fn id', imports: ['random', 'common'] },
  uuid: { variable: 'uuid', make: 'make uuid', imports: ['random'] },
};

const TS: Piece = { kind: 'timestamp' };
const ID: Piece = { kind: 'clientOrderId' };
const UUID: Piece = { kind: 'uuid' };

/** Every kind of piece, as a record: TypeScript refuses it when a kind is added and not named here. */
const KINDS: Record<Piece['kind'], true> = {
  text: true,
  timestamp: true,
  clientOrderId: true,
  uuid: true,
  parameter: true,
};

describe('Copy as code: one walk over the kinds, a table per language (issue 20)', () => {
  it('a value is its pieces through their entries, joined; the empty value, the API key and a header text have theirs', () => {
    const every = value('a', TS, { kind: 'parameter', parameter: 'p' }, ID, UUID);
    assert.equal(renderValue(every, TOY), 't(a) ~ ts ~ arg(p) ~ id ~ uuid');
    assert.equal(renderValue(every, TOY, true), 'h(a) ~ ts ~ arg(p) ~ id ~ uuid');
    assert.equal(renderValue([], TOY), 'EMPTY');
    assert.equal(renderValue('apiKey', TOY), 'KEY');
  });

  it('run-time pieces are made once each, in order; a program that asks reads the clock after the answer', () => {
    const request = codeRequest(BASE, { form: pairs([['a', value(UUID, ID, UUID)]]) });
    const plan = planProgram(request);
    assert.deepEqual(makePieces(plan, TOY, 'beforeAsking'), ['make ts', 'make id', 'make uuid']);
    assert.deepEqual(pieceHelpers(plan, TOY), ['fn ts', 'fn id']);
    assert.deepEqual(pieceImports(plan, TOY), ['clock', 'common', 'random']);
    const asks = planProgram({ ...request, confirm: { reason: 'r', order: value('o') } });
    assert.deepEqual(makePieces(asks, TOY, 'beforeAsking'), ['make id', 'make uuid']);
    assert.deepEqual(makePieces(asks, TOY, 'afterAnswer'), ['make ts']);
    const none = planProgram(codeRequest(BASE, { signed: false, form: pairs([['a', '1']]) }));
    assert.deepEqual(
      [makePieces(none, TOY, 'beforeAsking'), pieceHelpers(none, TOY), pieceImports(none, TOY)],
      [[], [], []],
    );
  });

  it('the body by its kind: none, form, or the JSON value as an expression', () => {
    const body: BodyStatements = { none: ['none'], form: ['form'], json: (v) => [`json ${v}`] };
    const of = (over: Parameters<typeof codeRequest>[1]): readonly string[] =>
      bodyStatements(planProgram(codeRequest(BASE, over)), body, TOY);
    assert.deepEqual(of({ method: 'GET', contentType: JSON_TYPE }), ['none']);
    assert.deepEqual(of({ form: pairs([['a', '1']]) }), ['form']);
    assert.deepEqual(of({ json: value('{"t":', TS, '}'), contentType: JSON_TYPE }), ['json t({"t":) ~ ts ~ t(})']);
  });

  it('the functions of a program, each when needed, in the order every language defines them', () => {
    const f = { helpers: 'helpers', arguments: 'arguments', keys: 'keys', confirm: 'confirm', send: 'send' };
    const all = codeRequest(BASE, {
      form: pairs([['id', ID]]),
      parameters: [{ name: 'p', description: 'p' }],
      confirm: { reason: 'r', order: value('o') },
    });
    assert.deepEqual(programFunctions(planProgram(all), f, TOY), [
      'helpers',
      'arguments',
      'keys',
      'fn ts',
      'fn id',
      'confirm',
      'send',
    ]);
    const ping = codeRequest(BASE, { method: 'GET', signed: false, contentType: JSON_TYPE });
    assert.deepEqual(programFunctions(planProgram(ping), f, TOY), ['helpers', 'send']);
  });

  it('a table that lacks a kind of piece does not compile (tsc checks the line below)', () => {
    const { uuid: _uuid, ...lacking } = TOY;
    // @ts-expect-error: no entry for uuid
    const table: ValueRenderings = lacking;
    assert.equal(table.empty, 'EMPTY');
  });

  it('no file of src/core/codegen/ but renderings.ts switches over the kinds of piece, and the languages read no flag of one', () => {
    const kinds = Object.keys(KINDS).join('|');
    const copy = new RegExp(`switch \\(\\w+\\.kind\\)|case '(${kinds})'|=== 'apiKey'`);
    const flag = /\bplan\.uses(Timestamp|ClientOrderId|Uuid)\b/;
    const files = readdirSync(CODEGEN).filter((f) => f.endsWith('.ts') && f !== 'renderings.ts');
    assert.ok(files.includes('python.ts') && files.includes('shell.ts'), files.join(' '));
    for (const file of files) {
      const source = readFileSync(join(CODEGEN, file), 'utf8');
      assert.doesNotMatch(source, copy, file);
      if (['python.ts', 'node.ts', 'go.ts', 'shell.ts'].includes(file)) assert.doesNotMatch(source, flag, file);
    }
  });

  it('the program model has a file name of its own: format/model.ts is the .tradereq document', () => {
    assert.ok(existsSync(join(CODEGEN, 'program-model.ts')));
    assert.ok(!existsSync(join(CODEGEN, 'model.ts')));
  });
});
