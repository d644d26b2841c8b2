import * as vscode from 'vscode';

/** What a run reported for an item, kept for the integration tests (nothing secret: results hold none). */
export interface RecordedResult {
  readonly state: 'started' | 'passed' | 'failed' | 'errored' | 'skipped';
  readonly messages: readonly RecordedMessage[];
}

/** A message of a result; a snapshot's carries both sides of VS Code's diff (TestMessage.diff). */
interface RecordedMessage {
  readonly text: string;
  readonly line?: number;
  readonly expectedOutput?: string;
  readonly actualOutput?: string;
}

/** `FILE_URI::CASE_ID`: a request item's key in the recorded results. */
export function resultKey(item: vscode.TestItem): string {
  return `${item.uri?.toString() ?? ''}::${item.id}`;
}

/** The request files' items and runs (testing-files.ts, in dist/language.js: it parses and sends). */
export interface TestFiles {
  /** Every request file of the workspace (bounded), read from disk unless open in an editor. */
  discoverAll(): Promise<void>;
  /** The Testing view's refresh: every file again. */
  refresh(): Promise<void>;
  run(
    target: 'sandbox' | 'environment',
    updateSnapshots: boolean,
    request: vscode.TestRunRequest,
    token: vscode.CancellationToken,
  ): Promise<void>;
  /** "TradeReq: Update Snapshots", given what the command was given. */
  updateSnapshots(args: readonly unknown[]): Promise<void>;
  sandboxUrl(): string | undefined;
  stateFile(): string;
}

/**
 * Request files in VS Code's Testing view: the controller and its three run profiles, made at
 * activation so that the view lists TradeReq's tests before any file is open; everything they do
 * (discovery, parsing, runs) loads with dist/language.js, on the view's first question. The run
 * profiles: against the embedded sandbox (the default), against the selected environment, and
 * against the sandbox writing the answers to their snapshots.
 */
export class Testing implements vscode.Disposable {
  readonly controller = vscode.tests.createTestController('tradereq', 'TradeReq');
  readonly sandboxProfile: vscode.TestRunProfile;
  readonly environmentProfile: vscode.TestRunProfile;
  /** Runs against the sandbox and writes the answers to their snapshots (`tradereq test --update-snapshots`). */
  readonly updateProfile: vscode.TestRunProfile;
  /** What the last run reported per item (`FILE_URI::CASE_ID`), for the integration tests. */
  readonly results = new Map<string, RecordedResult>();

  constructor(private readonly files: () => TestFiles) {
    const run =
      (target: 'sandbox' | 'environment', updateSnapshots = false) =>
      (request: vscode.TestRunRequest, token: vscode.CancellationToken): Promise<void> =>
        this.files().run(target, updateSnapshots, request, token);
    const { Run } = vscode.TestRunProfileKind;
    const profile = (label: string, target: 'sandbox' | 'environment', isDefault: boolean, update = false) =>
      this.controller.createRunProfile(label, Run, run(target, update), isDefault);
    this.sandboxProfile = profile(vscode.l10n.t('Run against the sandbox'), 'sandbox', true);
    this.environmentProfile = profile(vscode.l10n.t('Run against the selected environment'), 'environment', false);
    this.updateProfile = profile(vscode.l10n.t('Run against the sandbox and update snapshots'), 'sandbox', false, true);
    this.controller.resolveHandler = (item) => (item ? undefined : this.discoverAll());
    this.controller.refreshHandler = () => this.files().refresh();
  }

  discoverAll(): Promise<void> {
    return this.files().discoverAll();
  }

  /** Runs the items it is given with the update profile (testing-files.ts says which). */
  updateSnapshots(args: readonly unknown[]): Promise<void> {
    return this.files().updateSnapshots(args);
  }

  /** The base URL of the embedded sandbox, when it runs. */
  sandboxUrl(): string | undefined {
    return this.files().sandboxUrl();
  }

  /** The rate-limit state file the runs count in (tests fill it to make a paced run wait). */
  stateFile(): string {
    return this.files().stateFile();
  }

  dispose(): void {
    this.controller.dispose();
  }
}
