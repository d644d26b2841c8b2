/**
 * Writing the starter (core/env/starter.ts) into a folder, as `tradereq init` and the editor's
 * Create Starter Workspace both do: read from the package, every target checked before one is
 * written, plain files only (never through a link or over a folder), and a file that exists is
 * written over only when the caller says so. The callers word the outcomes.
 */
import { lstatSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { err, ok, type Result } from '../result';
import { STARTER_FILES, STARTER_PATH, type StarterFile } from './starter';

/** A starter file with its text, as it is written. */
export interface StarterText {
  readonly name: string;
  readonly text: string;
}

/** What failed on a file: its path and the system's error code (ENOENT, EACCES, …). */
export interface FileFailure {
  readonly path: string;
  readonly code: string;
}

/** What stands where a starter file would go and stops the whole starter. */
type InTheWay = 'folder' | 'link' | 'other';

export type StarterFolderCheck =
  | { readonly kind: 'not-a-folder' }
  | { readonly kind: 'in-the-way'; readonly path: string; readonly what: InTheWay }
  /** Nothing in the way; `existing` are the plain files the starter would write over (paths). */
  | { readonly kind: 'clear'; readonly existing: readonly string[] };

const codeOf = (e: unknown): string => (e as NodeJS.ErrnoException).code ?? String(e);

/**
 * The starter's files (the spec's unless `starter` names a deployment's) from the package whose
 * root (the folder of package.json) is `root`, with \n line endings.
 */
export function readStarterFiles(
  root: string,
  starter: readonly StarterFile[] = STARTER_FILES,
): Result<StarterText[], FileFailure> {
  const files: StarterText[] = [];
  for (const f of starter) {
    const path = join(root, ...(f.from ?? STARTER_PATH), f.name);
    try {
      // Written with \n whatever a checkout on Windows made of the line endings.
      files.push({ name: f.name, text: readFileSync(path, 'utf8').replace(/\r\n?/g, '\n') });
    } catch (e) {
      return err({ path, code: codeOf(e) });
    }
  }
  return ok(files);
}

/** Every target in `dir` looked at before anything is written (a missing `dir` is clear: it is made). */
export function checkStarterFolder(dir: string, names: readonly string[]): StarterFolderCheck {
  const folder = statSync(dir, { throwIfNoEntry: false });
  if (folder && !folder.isDirectory()) return { kind: 'not-a-folder' };
  const existing: string[] = [];
  for (const name of names) {
    const path = join(dir, name);
    const there = lstatSync(path, { throwIfNoEntry: false });
    if (!there) continue;
    if (!there.isFile()) {
      const what = there.isDirectory() ? 'folder' : there.isSymbolicLink() ? 'link' : 'other';
      return { kind: 'in-the-way', path, what };
    }
    existing.push(path);
  }
  return { kind: 'clear', existing };
}

/**
 * Writes `files` into `dir` (made when missing), over a file there only when `overwrite`. Answers
 * the paths written, else the file that failed with those written before it.
 */
export function writeStarterFiles(
  dir: string,
  files: readonly StarterText[],
  overwrite: boolean,
): Result<string[], FileFailure & { readonly written: readonly string[] }> {
  const written: string[] = [];
  let path = dir;
  try {
    mkdirSync(dir, { recursive: true });
    for (const f of files) {
      path = join(dir, f.name);
      // 'wx' fails on anything that appeared since the check, a dangling link included.
      writeFileSync(path, f.text, { encoding: 'utf8', flag: overwrite ? 'w' : 'wx' });
      written.push(path);
    }
  } catch (e) {
    return err({ path, code: codeOf(e), written });
  }
  return ok(written);
}
