import * as vscode from 'vscode';
import { normaliseOrigin } from '../core/request/gate';
import { PROFILE_NAME_PATTERN } from '../core/env/keys';
import type { Environments } from './environments';
import type { KeyStore } from './keys';
import { lazy } from './lazy';
import type { Sending } from './sending';

type SandboxHandle = Awaited<ReturnType<ReturnType<typeof lazy>['startSandbox']>>;

/** The document and request a command is about: its arguments (code lens) or the cursor. */
async function target(
  sending: Sending,
  uri?: unknown,
  index?: unknown,
): Promise<{ document: vscode.TextDocument; index: number } | undefined> {
  if (uri instanceof vscode.Uri && typeof index === 'number')
    return { document: await vscode.workspace.openTextDocument(uri), index };
  const editor = vscode.window.activeTextEditor;
  if (!editor || editor.document.languageId !== 'tradereq') {
    void vscode.window.showInformationMessage('TradeReq: open a .tradereq file and put the cursor in a request.');
    return undefined;
  }
  const request = sending.requestAt(editor.document, editor.selection.active.line);
  if (!request) {
    void vscode.window.showInformationMessage(
      'TradeReq: the cursor is not in a request: put it under a request line such as POST /api/v3/order.',
    );
    return undefined;
  }
  return { document: editor.document, index: request.index };
}

export function registerCommands(
  context: vscode.ExtensionContext,
  sending: Sending,
  keys: KeyStore,
  environments: Environments,
  signedDocs: SignedDocuments,
): vscode.Disposable[] {
  let sandbox: SandboxHandle | undefined;
  context.subscriptions.push({ dispose: () => void sandbox?.close() });

  return [
    vscode.commands.registerCommand('tradereq.sendRequest', async (uri?: unknown, index?: unknown) => {
      const t = await target(sending, uri, index);
      return t ? sending.send(t.document, t.index) : undefined;
    }),
    vscode.commands.registerCommand('tradereq.sendAll', async (uri?: unknown) => {
      const document =
        uri instanceof vscode.Uri
          ? await vscode.workspace.openTextDocument(uri)
          : vscode.window.activeTextEditor?.document;
      if (document?.languageId === 'tradereq') await sending.sendAll(document);
    }),
    vscode.commands.registerCommand('tradereq.signOnly', async (uri?: unknown, index?: unknown) => {
      const t = await target(sending, uri, index);
      const text = t ? await sending.signOnly(t.document, t.index) : undefined;
      if (text !== undefined) await signedDocs.show(text);
      return text;
    }),
    vscode.commands.registerCommand('tradereq.copyAsCurl', async (uri?: unknown, index?: unknown) => {
      const t = await target(sending, uri, index);
      const text = t ? await sending.curl(t.document, t.index) : undefined;
      if (text === undefined) return undefined;
      await vscode.env.clipboard.writeText(text);
      void vscode.window.showInformationMessage(
        'TradeReq: copied as cURL. The API key is a shell variable; the signature is valid only within recvWindow of its timestamp.',
      );
      return text;
    }),
    vscode.commands.registerCommand('tradereq.showPanel', () => sending.showPanel()),
    vscode.commands.registerCommand('tradereq.addApiKey', async (profileArg?: unknown, originArg?: unknown) => {
      await environments.ready();
      const env = environments.current();
      const profile = await vscode.window.showInputBox({
        title: 'TradeReq: Add API Key (1/4)',
        prompt:
          'Profile name: how request files and environments refer to this key ("key" in tradereq.env.json, # @key)',
        value: typeof profileArg === 'string' ? profileArg : (env.key ?? 'main'),
        validateInput: (v) =>
          PROFILE_NAME_PATTERN.test(v) ? undefined : 'Letters, digits, "-" and "_", starting with a letter or digit.',
        ignoreFocusOut: true,
      });
      if (!profile) return;
      const defaultOrigin = typeof originArg === 'string' ? originArg : (normaliseOrigin(env.baseUrl) ?? '');
      const originsText = await vscode.window.showInputBox({
        title: 'TradeReq: Add API Key (2/4)',
        prompt:
          'Origins this key may be sent to (scheme://host:port), comma-separated. A signed request to any other origin is refused.',
        value: defaultOrigin,
        validateInput: (v) => {
          const parts = v
            .split(',')
            .map((x) => x.trim())
            .filter(Boolean);
          if (parts.length === 0) return 'Name at least one origin, e.g. https://api.example.com';
          const bad = parts.find((x) => !normaliseOrigin(x));
          return bad ? `"${bad}" is not an http(s) origin such as https://api.example.com` : undefined;
        },
        ignoreFocusOut: true,
      });
      if (!originsText) return;
      const apiKey = await vscode.window.showInputBox({
        title: 'TradeReq: Add API Key (3/4)',
        prompt: `API key of "${profile}" (sent in the API key header)`,
        ignoreFocusOut: true,
        validateInput: (v) => (/^\S+$/.test(v) ? undefined : 'The API key has no spaces.'),
      });
      if (!apiKey) return;
      const secretKey = await vscode.window.showInputBox({
        title: 'TradeReq: Add API Key (4/4)',
        prompt: `Secret key of "${profile}": used only to sign, stored only in VS Code's SecretStorage`,
        password: true,
        ignoreFocusOut: true,
        validateInput: (v) => (/^\S+$/.test(v) ? undefined : 'The secret key has no spaces.'),
      });
      if (!secretKey) return;
      const origins = [
        ...new Set(
          originsText
            .split(',')
            .map((x) => normaliseOrigin(x.trim()))
            .filter((x): x is string => x !== undefined),
        ),
      ];
      await keys.store(profile, { apiKey, secretKey, origins });
      void vscode.window.showInformationMessage(
        `TradeReq: key profile "${profile}" stored in SecretStorage, bound to ${origins.join(', ')}.`,
      );
    }),
    vscode.commands.registerCommand('tradereq.removeApiKey', async () => {
      const list = await keys.profiles();
      if (list.length === 0) return void vscode.window.showInformationMessage('TradeReq: no key profiles are stored.');
      const picked = await vscode.window.showQuickPick(
        list.map((k) => ({ label: k.profile, description: k.origins.join(', ') })),
        { title: 'TradeReq: Remove API Key' },
      );
      if (!picked) return;
      const remove = 'Remove';
      if (
        (await vscode.window.showWarningMessage(
          `Remove key profile "${picked.label}" from SecretStorage?`,
          { modal: true },
          remove,
        )) === remove
      )
        await keys.remove(picked.label);
    }),
    vscode.commands.registerCommand('tradereq.listApiKeys', async () => {
      const list = await keys.profiles();
      if (list.length === 0) {
        void vscode.window.showInformationMessage('TradeReq: no key profiles are stored. Run "TradeReq: Add API Key".');
        return list;
      }
      // Profiles and origins only: a key's value is never shown.
      await vscode.window.showQuickPick(
        list.map((k) => ({ label: k.profile, description: `bound to ${k.origins.join(', ') || 'no origin'}` })),
        { title: 'TradeReq: stored key profiles (values are never shown)' },
      );
      return list;
    }),
    vscode.commands.registerCommand('tradereq.startSandbox', async () => {
      if (sandbox)
        return void vscode.window.showInformationMessage(
          `TradeReq: the sandbox exchange is running at ${sandbox.baseUrl}.`,
        );
      try {
        sandbox = await lazy().startSandbox({ port: 8780 });
      } catch (e) {
        const inUse = (e as NodeJS.ErrnoException).code === 'EADDRINUSE';
        void vscode.window.showErrorMessage(
          inUse
            ? 'TradeReq: port 8780 is in use: is a sandbox already running ("tradereq sandbox")? Requests to the sandbox environment go to it.'
            : `TradeReq: the sandbox did not start: ${e instanceof Error ? e.message : String(e)}`,
        );
        return;
      }
      const origin = new URL(sandbox.baseUrl).origin;
      const stored = await keys.get('sandbox');
      const store = 'Store Demo Key';
      const choice = await vscode.window.showInformationMessage(
        `TradeReq: sandbox exchange running at ${sandbox.baseUrl}. It follows the spec; nothing leaves this machine.${stored ? '' : ' Store its demo key as key profile "sandbox"?'}`,
        ...(stored ? [] : [store]),
      );
      if (choice === store) await sending.storeDemoKey(origin);
      return sandbox.baseUrl;
    }),
    vscode.commands.registerCommand('tradereq.resetState', () => resetState()),
    vscode.commands.registerCommand('tradereq.stopSandbox', async () => {
      await sandbox?.close();
      sandbox = undefined;
    }),
  ];
}

/**
 * Forgets the rate-limit state of one origin or of all, after a modal confirmation: the way out
 * of a damaged state (which blocks sending), and of a ban the user knows is over.
 */
async function resetState(): Promise<void> {
  const { Budget, FileStateStore } = lazy();
  const store = new FileStateStore();
  const state = store.read();
  const all = 'All origins';
  const picks = [
    ...Object.entries(state.origins).map(([origin, s]) => ({
      label: origin,
      description: s.damaged ? 'damaged: sending is blocked' : undefined,
    })),
    { label: all, description: state.damaged ? `the state file cannot be read (${state.damaged.reason})` : undefined },
  ];
  const picked = await vscode.window.showQuickPick(picks, { title: 'TradeReq: Reset Rate-Limit State' });
  if (!picked) return;
  const reset = 'Reset';
  const answer = await vscode.window.showWarningMessage(
    `Forget the rate-limit budget, Retry-After wait and ban of ${picked.label === all ? 'every origin' : picked.label}?`,
    {
      modal: true,
      detail: 'Reset only once you know no ban is in force: sending during a ban extends it (§8 rules 2–3).',
    },
    reset,
  );
  if (answer !== reset) return;
  try {
    new Budget(store).reset(picked.label === all ? undefined : picked.label);
    void vscode.window.showInformationMessage(
      `TradeReq: the rate-limit state of ${picked.label === all ? 'every origin' : picked.label} was reset.`,
    );
  } catch (e) {
    void vscode.window.showErrorMessage(`TradeReq: ${e instanceof Error ? e.message : String(e)}; nothing was reset.`);
  }
}

/** Read-only documents for "Sign only". */
export class SignedDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  static readonly scheme = 'tradereq-signed';
  private readonly contents = new Map<string, string>();
  private readonly registration = vscode.workspace.registerTextDocumentContentProvider(SignedDocuments.scheme, this);
  private count = 0;

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.contents.get(uri.toString()) ?? '';
  }

  async show(text: string): Promise<void> {
    const uri = vscode.Uri.from({ scheme: SignedDocuments.scheme, path: `/Signed request ${++this.count}.txt` });
    this.contents.set(uri.toString(), text);
    await vscode.window.showTextDocument(uri, { preview: true, viewColumn: vscode.ViewColumn.Beside });
  }

  dispose(): void {
    this.registration.dispose();
  }
}
