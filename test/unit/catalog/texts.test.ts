/**
 * The catalog's texts the editor and the panel show translated (issue 23): the list names every one
 * of them, and the Simplified Chinese bundle translates each, keeping its placeholders.
 */
import assert from 'node:assert/strict';
import { DEPLOYMENTS } from '../../../src/core/catalog/deployment';
import { endpointCatalogOf } from '../../../src/core/catalog/endpoint-catalogs';
import { ERROR_CODES } from '../../../src/core/catalog/errors';
import { HTTP_STATUSES, OTHER_STATUS_MEANINGS } from '../../../src/core/catalog/statuses';
import { STREAM_DESCRIPTIONS } from '../../../src/core/catalog/stream-names';
import { shownCatalogTexts } from '../../../src/core/catalog/texts';
import { placeholders, zhCnBundle } from '../../support/l10n';

describe('catalog texts shown translated', () => {
  const texts = new Set(shownCatalogTexts());

  it('lists every meaning, cause and next step of each error code, and every status meaning', () => {
    for (const e of ERROR_CODES)
      for (const text of [...e.meanings, e.cause, e.action])
        if (text !== undefined) assert.ok(texts.has(text), `${e.code}: ${text}`);
    for (const text of [...HTTP_STATUSES.map((s) => s.meaning), ...Object.values(OTHER_STATUS_MEANINGS)])
      assert.ok(texts.has(text), text);
  });

  it("lists every endpoint's title, description and parameter words (of every deployment), and every stream's", () => {
    for (const e of DEPLOYMENTS.flatMap((d) => endpointCatalogOf(d).endpoints)) {
      const params = e.params.flatMap((p) => [p, ...(p.itemParams ?? [])]);
      const words = [e.title, e.description, ...params.flatMap((p) => [p.description, p.rule])];
      for (const text of [...words, ...params.flatMap((p) => p.enumValues ?? []).map((v) => v.description)])
        if (text !== undefined) assert.ok(texts.has(text), `${e.method} ${e.path}: ${text}`);
    }
    for (const s of STREAM_DESCRIPTIONS) {
      const params = s.params.flatMap((p) => [p.description, p.rule, ...(p.values ?? []).map((v) => v.description)]);
      for (const text of [s.title, s.description, ...params, ...s.fields.map((f) => f.description)])
        assert.ok(texts.has(text), `${s.channel}: ${text}`);
    }
  });

  it('has a translation of each in l10n/bundle.l10n.zh-cn.json, with the same placeholders', () => {
    const bundle = zhCnBundle();
    const missing = [...texts].filter((text) => !bundle[text]?.trim());
    assert.deepEqual(missing, [], 'texts with no Simplified Chinese translation');
    for (const text of texts) assert.deepEqual(placeholders(bundle[text]!), placeholders(text), text);
  });
});
