import * as vscode from 'vscode';
import { BOUNDS } from '../core/bounds';
import { BUILTIN_SANDBOX, ENV_FILE_NAME, type NamedEnvironment } from '../core/env/constants';
import { chooseEnvironment, envFileCandidates, environmentList, type EnvironmentEntries } from '../core/env/lookup';
import { fileProblemText } from '../core/repo-file';
import { lazy } from './lazy';
import { namedFileAt, readRepositoryFile } from './workspace-fs';

/** The workspace's one selection before environments were per file; still honoured where no file has its own. */
const SELECTED = 'tradereq.environment';
/** The environment selected for each tradereq.env.json (by its URI; "" for the built-in one). */
const SELECTED_BY_FILE = 'tradereq.environmentByFile';

/** A tradereq.env.json as loaded (or the built-in sandbox when a request file has none). */
interface EnvFile {
  /** The file's URI as a string; "" for the built-in environment. */
  readonly key: string;
  /** The folder it comes from, as the picker shows it. */
  readonly folder: string;
  readonly entries?: EnvironmentEntries;
  readonly environments: readonly NamedEnvironment[];
  readonly problem?: string;
}

/** The built-in sandbox, where no tradereq.env.json is found; folderShown() words its folder for the picker. */
const BUILTIN: EnvFile = { key: '', folder: 'built-in', environments: [BUILTIN_SANDBOX] };

/**
 * The environments a request file uses: those of the tradereq.env.json in its folder or the
 * nearest folder above it (as the command line finds it), in every folder of a multi-root
 * workspace; the built-in sandbox where there is none. The selection is remembered per file.
 */
export class Environments implements vscode.Disposable {
  /** Env files by URI, loaded on first use. */
  private readonly files = new Map<string, Promise<EnvFile>>();
  /** The env file of each folder that holds request files, once looked up (sync reads use it). */
  private readonly byFolder = new Map<string, EnvFile>();
  private readonly lookups = new Map<string, Promise<EnvFile>>();
  /** Counts reloads: what a lookup found is kept only if nothing changed meanwhile. */
  private generation = 0;
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;
  private readonly disposables: vscode.Disposable[] = [this.changed];

  constructor(
    private readonly state: vscode.Memento,
    private readonly log: vscode.LogOutputChannel,
  ) {
    const watcher = vscode.workspace.createFileSystemWatcher(`**/${ENV_FILE_NAME}`);
    const reload = (): void => {
      this.generation++;
      this.files.clear();
      this.lookups.clear();
      this.byFolder.clear();
      void this.ready().then(() => this.changed.fire());
    };
    this.disposables.push(
      watcher,
      watcher.onDidChange(reload),
      watcher.onDidCreate(reload),
      watcher.onDidDelete(reload),
      vscode.workspace.onDidChangeWorkspaceFolders(reload),
      // Another request file may use another env file: load it, and say so once it is known.
      vscode.window.onDidChangeActiveTextEditor((e) => {
        if (e?.document.languageId !== 'tradereq') return;
        const folder = folderOf(e.document.uri)?.toString();
        if (folder !== undefined && !this.byFolder.has(folder))
          void this.ready(e.document.uri).then(() => this.changed.fire());
      }),
    );
  }

  /** Loads the env file `uri` uses (default: the active editor's file), the first time it is needed. */
  async ready(uri?: vscode.Uri): Promise<void> {
    await this.lookup(folderOf(uri ?? activeUri()));
  }

  /** The environments of the env file `uri` uses (ready() first). */
  all(uri?: vscode.Uri): readonly NamedEnvironment[] {
    return this.fileFor(uri).environments;
  }

  /** What is wrong with the env file `uri` uses, if anything. */
  error(uri?: vscode.Uri): string | undefined {
    return this.fileFor(uri).problem;
  }

  /** The selected environment of the env file `uri` uses; else its only one; else `sandbox` (ready() first). */
  current(uri?: vscode.Uri): NamedEnvironment {
    const file = this.fileFor(uri);
    const byFile = this.state.get<Record<string, string>>(SELECTED_BY_FILE) ?? {};
    const wanted = byFile[file.key] ?? this.state.get<string>(SELECTED);
    const chosen = chooseEnvironment(file.entries, wanted, file.folder);
    if (chosen.ok) return chosen.value;
    const fallback = chooseEnvironment(file.entries, undefined, file.folder);
    return fallback.ok ? fallback.value : BUILTIN_SANDBOX;
  }

  /** Selects `name` for the env file `uri` uses (default: the active editor's). */
  async select(name: string, uri?: vscode.Uri): Promise<void> {
    await this.ready(uri);
    await this.selectIn(this.fileFor(uri).key, name);
  }

  private async selectIn(fileKey: string, name: string): Promise<void> {
    const byFile = this.state.get<Record<string, string>>(SELECTED_BY_FILE) ?? {};
    await this.state.update(SELECTED_BY_FILE, { ...byFile, [fileKey]: name });
    this.changed.fire();
  }

  /**
   * The environment picker: the environments of every tradereq.env.json of the workspace (and of
   * the one the active file uses), each with the folder it comes from.
   */
  async pick(): Promise<void> {
    const items = await this.choices();
    const active = this.fileFor(undefined);
    const picked = await vscode.window.showQuickPick(items, {
      title: vscode.l10n.t('TradeReq: environment for sending, completion and checks'),
      placeHolder: active.problem ?? vscode.l10n.t('Current: {0} ({1})', this.current().name, folderShown(active)),
    });
    if (picked?.file !== undefined && picked.env !== undefined) await this.selectIn(picked.file, picked.env);
  }

  /** The picker's items: a separator per env file (its folder), then its environments. */
  async choices(): Promise<(vscode.QuickPickItem & { file?: string; env?: string })[]> {
    await this.ready();
    const active = this.fileFor(undefined);
    const current = this.current();
    const items: (vscode.QuickPickItem & { file?: string; env?: string })[] = [];
    for (const f of await this.workspaceFiles()) {
      const folder = folderShown(f);
      items.push({ label: folder, kind: vscode.QuickPickItemKind.Separator });
      for (const e of f.environments)
        items.push({
          label: e.name,
          description: `${folder} · ${e.baseUrl}`,
          detail: environmentDetail(e),
          picked: f.key === active.key && e.name === current.name,
          file: f.key,
          env: e.name,
        });
    }
    return items;
  }

  /** Every env file of the workspace folders, plus the one the active file uses, loaded. */
  private async workspaceFiles(): Promise<EnvFile[]> {
    const found = await vscode.workspace.findFiles(`**/${ENV_FILE_NAME}`, '**/node_modules/**', 200);
    const loaded = await Promise.all(found.map((u) => this.load(u)));
    const all = [this.fileFor(undefined), ...loaded];
    const seen = new Set<string>();
    return all.filter((f) => !seen.has(f.key) && seen.add(f.key)).sort((a, b) => a.folder.localeCompare(b.folder));
  }

  private fileFor(uri: vscode.Uri | undefined): EnvFile {
    const folder = folderOf(uri ?? activeUri());
    return (folder && this.byFolder.get(folder.toString())) ?? BUILTIN;
  }

  /** The nearest env file of `folder` or above it (the built-in one when there is none). */
  private lookup(folder: vscode.Uri | undefined): Promise<EnvFile> {
    if (!folder) return Promise.resolve(BUILTIN);
    const key = folder.toString();
    const generation = this.generation;
    let found = this.lookups.get(key);
    if (!found) {
      found = (async () => {
        const parent = (d: string): string => vscode.Uri.joinPath(vscode.Uri.parse(d), '..').toString();
        const join = (d: string, name: string): string => vscode.Uri.joinPath(vscode.Uri.parse(d), name).toString();
        for (const candidate of envFileCandidates(key, parent, join)) {
          const uri = vscode.Uri.parse(candidate);
          if (await namedFileAt(uri)) return this.load(uri);
        }
        return BUILTIN;
      })().then((file) => {
        // A lookup that started before the files changed is not kept.
        if (generation === this.generation) this.byFolder.set(key, file);
        return file;
      });
      this.lookups.set(key, found);
    }
    return found;
  }

  private load(uri: vscode.Uri): Promise<EnvFile> {
    const key = uri.toString();
    let file = this.files.get(key);
    if (!file) {
      file = this.read(uri);
      this.files.set(key, file);
    }
    return file;
  }

  private async read(uri: vscode.Uri): Promise<EnvFile> {
    const base = { key: uri.toString(), folder: folderLabel(uri) };
    const broken = (problem: string): EnvFile => {
      this.log.warn(`${problem}; using the built-in sandbox environment until it is fixed`);
      return { ...base, environments: [BUILTIN_SANDBOX], problem };
    };
    // A plain file of its own folder, bounded while read (workspace-fs.ts): a link to /dev/zero never loads.
    const file = await readRepositoryFile(uri, vscode.Uri.joinPath(uri, '..'), BOUNDS.envFileBytes);
    if (!file.ok)
      return file.error.kind === 'missing'
        ? { ...base, environments: [BUILTIN_SANDBOX] }
        : broken(fileProblemText(vscode.workspace.asRelativePath(uri), file.error));
    const parsed = lazy().parseEnvironmentFile(new TextDecoder().decode(file.value));
    if (!parsed.ok) return broken(vscode.l10n.t('{0} of {1}: {2}', ENV_FILE_NAME, base.folder, parsed.error));
    return { ...base, entries: parsed.value, environments: environmentList(parsed.value) };
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}

/** An env file's folder as the picker shows it. */
function folderShown(file: EnvFile): string {
  return file === BUILTIN ? vscode.l10n.t('built-in') : file.folder;
}

/** An environment's key profile, and whether it asks before every order, as the picker shows them. */
function environmentDetail(e: NamedEnvironment): string {
  if (!e.key) return vscode.l10n.t('no key profile');
  return e.confirm
    ? vscode.l10n.t('key profile {0} · asks before every order', e.key)
    : vscode.l10n.t('key profile {0}', e.key);
}

/** The active editor's request file, if one is active. */
function activeUri(): vscode.Uri | undefined {
  const document = vscode.window.activeTextEditor?.document;
  return document?.languageId === 'tradereq' ? document.uri : undefined;
}

/**
 * The folder a request file's env file is looked up from: its own folder; the first workspace
 * folder for an untitled file or none at all; undefined with no folder to look in.
 */
function folderOf(uri: vscode.Uri | undefined): vscode.Uri | undefined {
  if (uri && uri.scheme !== 'untitled') return vscode.Uri.joinPath(uri, '..');
  return vscode.workspace.workspaceFolders?.[0]?.uri;
}

/** "alpha/config" in a multi-root workspace (its folder's name first), "config" in one folder, a path outside. */
function folderLabel(envFile: vscode.Uri): string {
  const dir = vscode.Uri.joinPath(envFile, '..');
  const folder = vscode.workspace.getWorkspaceFolder(envFile);
  if (!folder) return dir.fsPath;
  const inside = dir.path.slice(folder.uri.path.replace(/\/$/, '').length).replace(/^\//, '');
  const multi = (vscode.workspace.workspaceFolders?.length ?? 0) > 1;
  return [multi || inside === '' ? folder.name : undefined, inside || undefined].filter(Boolean).join('/');
}
