import * as vscode from 'vscode';
import { BUILTIN_SANDBOX, ENV_FILE_NAME, type NamedEnvironment } from '../core/env/constants';
import { BOUNDS, formatSize } from '../core/bounds';
import { lazy } from './lazy';

const SELECTED = 'tradereq.environment';

/**
 * The environments of the workspace's tradereq.env.json (or the built-in sandbox), and the one the
 * user selected, remembered per workspace.
 */
export class Environments implements vscode.Disposable {
  private environments: NamedEnvironment[] = [BUILTIN_SANDBOX];
  private problem: string | undefined;
  private loaded: Promise<void> | undefined;
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;
  private readonly disposables: vscode.Disposable[] = [this.changed];

  constructor(
    private readonly state: vscode.Memento,
    private readonly log: vscode.LogOutputChannel,
  ) {
    const watcher = vscode.workspace.createFileSystemWatcher(`**/${ENV_FILE_NAME}`);
    const reload = (): void => {
      this.loaded = this.load();
      void this.loaded.then(() => this.changed.fire());
    };
    this.disposables.push(
      watcher,
      watcher.onDidChange(reload),
      watcher.onDidCreate(reload),
      watcher.onDidDelete(reload),
    );
  }

  /** Loads the file the first time it is needed, not at activation. */
  ready(): Promise<void> {
    return (this.loaded ??= this.load());
  }

  private async load(): Promise<void> {
    const folder = vscode.workspace.workspaceFolders?.[0];
    this.problem = undefined;
    if (!folder) {
      this.environments = [BUILTIN_SANDBOX];
      return;
    }
    const uri = vscode.Uri.joinPath(folder.uri, ENV_FILE_NAME);
    let text: string;
    try {
      const bytes = await vscode.workspace.fs.readFile(uri);
      if (bytes.length > BOUNDS.envFileBytes) {
        this.problem = `${ENV_FILE_NAME} is larger than TradeReq reads (${formatSize(BOUNDS.envFileBytes)})`;
        this.log.warn(`${this.problem}; using the built-in sandbox environment until it is fixed`);
        this.environments = [BUILTIN_SANDBOX];
        return;
      }
      text = new TextDecoder().decode(bytes);
    } catch {
      this.environments = [BUILTIN_SANDBOX];
      return;
    }
    const parsed = lazy().parseEnvironmentFile(text);
    if (!parsed.ok) {
      this.problem = `${ENV_FILE_NAME}: ${parsed.error}`;
      this.log.warn(`${this.problem}; using the built-in sandbox environment until it is fixed`);
      this.environments = [BUILTIN_SANDBOX];
      return;
    }
    const list = Object.entries(parsed.value).map(([name, env]) => ({ name, ...env }));
    this.environments = list.some((e) => e.name === BUILTIN_SANDBOX.name) ? list : [...list, BUILTIN_SANDBOX];
  }

  all(): readonly NamedEnvironment[] {
    return this.environments;
  }

  /** What is wrong with tradereq.env.json, if anything. */
  error(): string | undefined {
    return this.problem;
  }

  current(): NamedEnvironment {
    const wanted = this.state.get<string>(SELECTED);
    const fromFile = this.environments.filter((e) => e !== BUILTIN_SANDBOX);
    return (
      this.environments.find((e) => e.name === wanted) ??
      (fromFile.length === 1
        ? fromFile[0]!
        : (this.environments.find((e) => e.name === BUILTIN_SANDBOX.name) ?? BUILTIN_SANDBOX))
    );
  }

  async select(name: string): Promise<void> {
    await this.state.update(SELECTED, name);
    this.changed.fire();
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}
