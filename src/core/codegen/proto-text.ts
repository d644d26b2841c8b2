/**
 * The `.proto` text of the binary pushes, printed from the descriptor generated from
 * src/core/ws/proto/push.proto (so the program's schema is TradeReq's own, with one home), for the
 * programs `tradereq code` writes: Node parses it as it runs, Python's protoc makes a class of it.
 */
import { ScalarType, type DescField, type DescMessage } from '@bufbuild/protobuf';
import { file_push } from '../ws/proto/push_pb';

const SCALAR_NAMES: Readonly<Record<ScalarType, string>> = {
  [ScalarType.DOUBLE]: 'double',
  [ScalarType.FLOAT]: 'float',
  [ScalarType.INT64]: 'int64',
  [ScalarType.UINT64]: 'uint64',
  [ScalarType.INT32]: 'int32',
  [ScalarType.FIXED64]: 'fixed64',
  [ScalarType.FIXED32]: 'fixed32',
  [ScalarType.BOOL]: 'bool',
  [ScalarType.STRING]: 'string',
  [ScalarType.BYTES]: 'bytes',
  [ScalarType.UINT32]: 'uint32',
  [ScalarType.SFIXED32]: 'sfixed32',
  [ScalarType.SFIXED64]: 'sfixed64',
  [ScalarType.SINT32]: 'sint32',
  [ScalarType.SINT64]: 'sint64',
};

/** A field's type as the .proto writes it, with `repeated` or `optional` before it. */
function fieldType(f: DescField): string {
  switch (f.fieldKind) {
    case 'scalar':
      return `${f.proto.proto3Optional ? 'optional ' : ''}${SCALAR_NAMES[f.scalar]}`;
    case 'message':
      return f.message.name;
    case 'list':
      return `repeated ${f.listKind === 'message' ? f.message.name : f.listKind === 'scalar' ? SCALAR_NAMES[f.scalar] : f.enum.name}`;
    default:
      // The push schema has no enums or maps; a change that adds one must teach this printer.
      throw new Error(`push.proto field ${f.name}: ${f.fieldKind} is not printed`);
  }
}

function messageText(m: DescMessage): string[] {
  const lines = [`message ${m.name} {`];
  for (const member of m.members) {
    if (member.kind === 'oneof') {
      lines.push(`  oneof ${member.name} {`);
      for (const f of member.fields) lines.push(`    ${fieldType(f)} ${f.name} = ${f.number};`);
      lines.push('  }');
    } else lines.push(`  ${fieldType(member)} ${member.name} = ${member.number};`);
  }
  lines.push('}');
  return lines;
}

/** push.proto as proto3 text: package, then every message in the order the file declares them. */
export function pushProtoText(): string {
  return [
    'syntax = "proto3";',
    '',
    `package ${file_push.proto.package};`,
    '',
    ...file_push.messages.flatMap((m) => [...messageText(m), '']),
  ].join('\n');
}

/** The wrapper's full name, as a program looks it up. */
export const PUSH_WRAPPER = `${file_push.proto.package}.PushDataV3ApiWrapper`;
