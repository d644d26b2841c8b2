/**
 * The files of the two packages, read without a package: a ZIP archive (a .vsix: the central
 * directory names each file, its local header leads to the data, stored or deflated) and a
 * gzipped tar (an npm tarball: 512-byte ustar headers, each followed by its data).
 */
import { readFileSync } from 'node:fs';
import { gunzipSync, inflateRawSync } from 'node:zlib';

const END_OF_DIRECTORY = 0x06054b50;
const DIRECTORY_ENTRY = 0x02014b50;
const LOCAL_HEADER = 0x04034b50;

/** The files of a ZIP archive by name, in the order of its central directory. */
export function zipEntries(path: string): Map<string, Buffer> {
  const zip = readFileSync(path);
  let end = zip.length - 22;
  while (end >= 0 && zip.readUInt32LE(end) !== END_OF_DIRECTORY) end--;
  if (end < 0) throw new Error(`${path} is not a ZIP archive`);
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  const files = new Map<string, Buffer>();
  for (let i = 0; i < count; i++) {
    if (zip.readUInt32LE(at) !== DIRECTORY_ENTRY) throw new Error(`${path}: damaged central directory`);
    const method = zip.readUInt16LE(at + 10);
    const size = zip.readUInt32LE(at + 20);
    const nameLength = zip.readUInt16LE(at + 28);
    const extra = zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
    const local = zip.readUInt32LE(at + 42);
    const name = zip.toString('utf8', at + 46, at + 46 + nameLength);
    if (zip.readUInt32LE(local) !== LOCAL_HEADER) throw new Error(`${path}: damaged entry ${name}`);
    const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const data = zip.subarray(start, start + size);
    files.set(name, method === 0 ? Buffer.from(data) : inflateRawSync(data));
    at += 46 + nameLength + extra;
  }
  return files;
}

/** The regular files of a .tgz by name (ustar: the prefix field joins long names). */
export function tgzEntries(path: string): Map<string, Buffer> {
  const tar = gunzipSync(readFileSync(path));
  const files = new Map<string, Buffer>();
  const field = (at: number, length: number): string => tar.toString('utf8', at, at + length).replace(/\0.*$/s, '');
  for (let at = 0; at + 512 <= tar.length;) {
    const name = field(at, 100);
    if (name === '') break;
    const size = parseInt(field(at + 124, 12).trim() || '0', 8);
    const type = field(at + 156, 1);
    const prefix = field(at + 345, 155);
    if (type === '0' || type === '')
      files.set(prefix ? `${prefix}/${name}` : name, tar.subarray(at + 512, at + 512 + size));
    at += 512 + Math.ceil(size / 512) * 512;
  }
  return files;
}
