/**
 * The .proto text the stream programs carry (codegen/proto-text.ts), printed from the descriptor
 * generated from src/core/ws/proto/push.proto: read back by another implementation (protobufjs),
 * it describes every message with the same fields, numbers, kinds and oneof.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import protobuf from 'protobufjs';
import { pushProtoText } from '../../../src/core/codegen/proto-text';
import { file_push } from '../../../src/core/ws/proto/push_pb';

/** "name number rule type [oneof]" of each field of each message of a protobufjs root. */
function shape(root: protobuf.Root, messages: readonly string[]): string[] {
  return messages.flatMap((name) => {
    const type = root.lookupType(`tradereq.push.${name}`);
    return type.fieldsArray.map(
      (f) => `${name}.${f.name} ${f.id} ${f.repeated ? 'repeated' : ''} ${f.type} ${f.partOf?.name ?? ''}`,
    );
  });
}

describe('codegen: the .proto text of the pushes', () => {
  it('reads back, in protobufjs, as the same messages as the project’s push.proto', () => {
    const names = file_push.messages.map((m) => m.name);
    assert.ok(names.length >= 20, String(names.length));
    const printed = protobuf.parse(pushProtoText(), { keepCase: true }).root;
    const source = protobuf.parse(
      readFileSync(join(__dirname, '..', '..', '..', 'src', 'core', 'ws', 'proto', 'push.proto'), 'utf8'),
      { keepCase: true },
    ).root;
    assert.deepEqual(shape(printed, names), shape(source, names));
  });
});
