/** The data texts the editor shows translated (issue 23): each has a Simplified Chinese translation. */
import assert from 'node:assert/strict';
import { shownCatalogTexts } from '../../../src/core/catalog/texts';
import { shownDataTexts } from '../../../src/core/editor/shown-texts';
import { DIRECTIVES } from '../../../src/core/format/directives';
import { SYSTEM_VARIABLES } from '../../../src/core/format/variables';
import { zhCnBundle } from '../../support/l10n';

describe('data texts the editor shows translated', () => {
  it("are the catalog's, the directives' and system variables' descriptions", () => {
    const texts = new Set(shownDataTexts());
    const expected = [
      ...shownCatalogTexts(),
      ...DIRECTIVES.map((d) => d.description),
      ...SYSTEM_VARIABLES.map((v) => v.description),
    ];
    for (const text of expected) assert.ok(texts.has(text), text);
  });

  it('each has a translation in l10n/bundle.l10n.zh-cn.json', () => {
    const bundle = zhCnBundle();
    assert.deepEqual(
      shownDataTexts().filter((text) => !bundle[text]?.trim()),
      [],
    );
  });
});
