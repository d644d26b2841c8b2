/** The workspace's file system as the editor asks it (any scheme: local, remote, virtual). */
import { lstat } from 'node:fs/promises';
import * as vscode from 'vscode';
import { readRepoFile, type FileProblem } from '../core/repo-file';
import { err, ok, type Result } from '../core/result';

/** Whether anything (a file or a folder) is at `uri`. */
export async function exists(uri: vscode.Uri): Promise<boolean> {
  try {
    await vscode.workspace.fs.stat(uri);
    return true;
  } catch {
    return false;
  }
}

/**
 * Whether a file a repository names is at `uri`: on disk, anything at all (a link to nothing, a
 * FIFO, a folder), so that readRepositoryFile refuses it rather than one further up being used;
 * elsewhere, anything but a folder.
 */
export async function namedFileAt(uri: vscode.Uri): Promise<boolean> {
  if (uri.scheme === 'file') return (await lstat(uri.fsPath).catch(() => undefined)) !== undefined;
  try {
    return (await vscode.workspace.fs.stat(uri)).type !== vscode.FileType.Directory;
  } catch {
    return false;
  }
}

/**
 * The bytes of a file a repository names (tradereq.env.json), at most `maxBytes`. On disk as the
 * command line reads it (core/repo-file.ts): a plain file inside `root`, links resolved, opened
 * without blocking, bounded while reading. A remote or virtual file system has no links or FIFOs
 * for TradeReq to follow: its file is a file by VS Code's stat, within the bound before and after.
 */
export async function readRepositoryFile(
  uri: vscode.Uri,
  root: vscode.Uri,
  maxBytes: number,
): Promise<Result<Uint8Array, FileProblem>> {
  if (uri.scheme === 'file') {
    const file = await readRepoFile(uri.fsPath, root.fsPath, maxBytes);
    return file.ok ? ok(file.value.bytes) : file;
  }
  let bytes: Uint8Array;
  try {
    const stat = await vscode.workspace.fs.stat(uri);
    if (stat.type & vscode.FileType.Directory) return err({ kind: 'not-a-file', what: 'folder' });
    if (!(stat.type & vscode.FileType.File)) return err({ kind: 'not-a-file', what: 'other' });
    if (stat.size > maxBytes) return err({ kind: 'too-large', maxBytes, bytes: stat.size });
    bytes = await vscode.workspace.fs.readFile(uri);
  } catch (e) {
    const code = e instanceof vscode.FileSystemError ? e.code : String(e);
    return err(code === 'FileNotFound' ? { kind: 'missing' } : { kind: 'unreadable', code });
  }
  return bytes.length > maxBytes ? err({ kind: 'too-large', maxBytes, bytes: bytes.length }) : ok(bytes);
}
