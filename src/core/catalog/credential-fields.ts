/**
 * Names of the fields that hold a credential (a listen key, docs/websocket.md, Listen keys), as a
 * parameter or in an answer: such a value never resolves into a request and is masked wherever it
 * is shown. Every `listenKey`-typed parameter of every deployment's catalog is one of these
 * (test/unit/catalog/credential-fields.test.ts). A module of its own, free of the catalogs, so the
 * WebSocket client's bundle (dist/ws.js), which masks listen keys, does not carry an endpoint list.
 */
export const CREDENTIAL_FIELDS: ReadonlySet<string> = new Set(['listenKey']);
