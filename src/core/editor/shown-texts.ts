/**
 * Every text of data tables that the editor and the panel show in the display language, translated
 * where shown (`t(entry.text)`): the catalog's, and the directives' and system variables'
 * descriptions, and the envelope fields of a push. The completeness test requires a translation of each in every bundle.
 */
import { shownCatalogTexts } from '../catalog/texts';
import { pushEnvelopeTexts } from './expectation-help';
import { DIRECTIVES } from '../format/directives';
import { SYSTEM_VARIABLES } from '../format/variables';

export function shownDataTexts(): string[] {
  const texts = [
    ...shownCatalogTexts(),
    ...DIRECTIVES.map((d) => d.description),
    ...SYSTEM_VARIABLES.map((v) => v.description),
    ...pushEnvelopeTexts(),
  ];
  return [...new Set(texts)].sort();
}
