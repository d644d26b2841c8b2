import assert from 'node:assert/strict';
import { CREDENTIAL_FIELDS } from '../../../src/core/catalog/credential-fields';
import { DEPLOYMENTS } from '../../../src/core/catalog/deployment';
import { endpointCatalogOf } from '../../../src/core/catalog/endpoint-catalogs';

describe('catalog: the fields that hold a credential', () => {
  it("are the names of every deployment's listenKey-typed parameters, no more and no fewer", () => {
    const named = new Set(
      DEPLOYMENTS.flatMap((d) => endpointCatalogOf(d).endpoints.flatMap((e) => e.params))
        .filter((p) => p.type === 'listenKey')
        .map((p) => p.name),
    );
    assert.ok(named.size > 0, 'some endpoint takes a listen key');
    assert.deepEqual([...CREDENTIAL_FIELDS].sort(), [...named].sort());
  });
});
