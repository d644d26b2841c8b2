import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import type { Budget, BudgetView } from '../core/budget/budget';
import type { ClockSync } from '../core/clock/sync';
import { isLoopbackOrigin } from '../core/env/demo';
import { maskApiKey, profileEnvPrefix } from '../core/env/keys';
import type { RequestBlock, TradeReqDocument } from '../core/format/model';
import type { ResolvedRequest } from '../core/format/resolve';
import type { Sender } from '../core/net/send';
import type { PanelEntryT, PanelStateT } from '../core/panel/protocol';
import type { PreparedRequest } from '../core/request/build';
import type { KeyChoice, PipelineResult } from '../core/request/pipeline';
import type { DocumentModels } from './documents';
import { toRange } from './documents';
import type { Environments } from './environments';
import type { History } from './history';
import type { KeyStore } from './keys';
import { lazy } from './lazy';
import type { ResponsePanel } from './panel';

interface Net {
  readonly sender: Sender;
  readonly budget: Budget;
  readonly clock: ClockSync;
}

/**
 * Sending from the editor: the core pipeline with keys from SecretStorage, confirmation in a modal
 * dialog, and the result in the response panel, the history, the status bar and the log.
 */
export class Sending implements vscode.Disposable {
  private net: Net | undefined;
  private readonly responses = new Map<string, unknown>();
  /** The account of the last signed send to each origin, so the budget shows its counter too. */
  private readonly accounts = new Map<string, string>();
  private readonly changed = new vscode.EventEmitter<void>();
  /** Fires after each send (the status bar shows the budget left). */
  readonly onDidSend = this.changed.event;
  private busy = false;

  constructor(
    private readonly models: DocumentModels,
    private readonly environments: Environments,
    private readonly keys: KeyStore,
    private readonly history: History,
    private readonly panel: ResponsePanel,
    private readonly log: vscode.LogOutputChannel,
  ) {}

  /** undici, the budget and the clock load on the first send. */
  private network(): Net {
    if (!this.net) {
      const { Sender, Budget, ClockSync, FileStateStore, DEFAULT_SEND_SETTINGS } = lazy();
      const store = new FileStateStore();
      this.net = { sender: new Sender(DEFAULT_SEND_SETTINGS), budget: new Budget(store), clock: new ClockSync(store) };
    }
    return this.net;
  }

  /** The budget of `origin`, once something was sent (the status bar does not load undici by itself). */
  budgetViewIfLoaded(origin: string): ReturnType<Budget['view']> | undefined {
    return this.net?.budget.view(origin, this.accounts.get(origin));
  }

  /** Sending and key use need a trusted workspace: an untrusted tradereq.env.json could point anywhere. */
  private trusted(): boolean {
    if (vscode.workspace.isTrusted) return true;
    void vscode.window
      .showWarningMessage(
        'TradeReq: sending requests and using keys needs a trusted workspace. Nothing was sent.',
        'Manage Workspace Trust',
      )
      .then((c) => {
        if (c) void vscode.commands.executeCommand('workbench.trust.manage');
      });
    this.log.warn('send refused: the workspace is not trusted; nothing was sent');
    return false;
  }

  requestAt(document: vscode.TextDocument, line: number): RequestBlock | undefined {
    const doc = this.models.get(document);
    return (
      doc.requests.find((r) => r.range.startLine <= line && line <= r.range.endLine) ??
      [...doc.requests].reverse().find((r) => r.range.startLine <= line)
    );
  }

  /** Sends one request of `document`; resolves to the panel entry when something was sent. */
  async send(document: vscode.TextDocument, index: number): Promise<PanelEntryT | undefined> {
    if (!this.trusted()) return undefined;
    const doc = this.models.get(document);
    const request = doc.requests[index];
    if (!request) return undefined;
    return this.run(doc, request, document);
  }

  async sendAll(document: vscode.TextDocument): Promise<void> {
    if (!this.trusted()) return;
    const doc = this.models.get(document);
    for (const request of doc.requests) {
      const entry = await this.run(doc, request, document);
      // After a refusal by the gate every later request would be refused too: stop.
      if (!entry || entry.outcome === 'refused') break;
    }
  }

  private async run(
    doc: TradeReqDocument,
    request: RequestBlock,
    document?: vscode.TextDocument,
  ): Promise<PanelEntryT | undefined> {
    await this.environments.ready();
    const environment = this.environments.current();
    const title =
      request.title?.text ??
      request.name?.text ??
      `${request.requestLine.method.text} ${request.requestLine.path.text}`;
    this.setBusy(true);
    let result: PipelineResult;
    try {
      result = await lazy().runRequest(doc, request, environment, {
        ...this.network(),
        clockSync: true,
        responses: this.responses,
        key: (resolved) => this.keyFor(resolved),
        allowOrigin: (resolved, choice, message) =>
          this.offerBinding(resolved, choice, message, () =>
            document ? this.send(document, request.index) : undefined,
          ),
        confirm: (resolved, order) => this.confirm(resolved, order),
      });
    } finally {
      this.setBusy(false);
    }
    switch (result.kind) {
      case 'bad-input': {
        const d = result.diagnostics[0];
        if (document && d) {
          const editor = await vscode.window.showTextDocument(document, { preserveFocus: false });
          editor.selection = new vscode.Selection(toRange(d.range).start, toRange(d.range).end);
          editor.revealRange(toRange(d.range));
        }
        void vscode.window.showErrorMessage(`TradeReq: not sent: ${result.message}`);
        return undefined;
      }
      case 'no-key':
        return undefined;
      case 'refused':
        this.log.info(`not sent: ${result.message}`);
        if (result.reason === 'confirmation') void vscode.window.showInformationMessage(`TradeReq: ${result.message}`);
        return undefined;
      case 'sent': {
        const clock = this.network().clock.sample(result.resolved.origin);
        const entry = lazy().entryFromResult(result, { id: randomUUID(), at: Date.now(), title, clock });
        if (result.report.budget.account) this.accounts.set(result.resolved.origin, result.report.budget.account);
        await this.history.add(entry);
        this.log.info(
          `${entry.request.method} ${entry.request.url.split('?')[0]} (${environment.name}) → ${entry.summary}${entry.timings ? ` · ${entry.timings.totalMs} ms` : ''}`,
        );
        // The entry is already redacted (API key masked, no secret): the log shows what the panel shows.
        this.log.debug(
          [
            'request:',
            `${entry.request.method} ${entry.request.url}`,
            ...entry.request.headers.map(([n, v]) => `${n}: ${v}`),
            entry.request.body,
          ].join('\n'),
        );
        if (entry.response)
          this.log.debug(
            [
              'response:',
              `${entry.status ?? ''} ${entry.statusMeaning ?? ''}`,
              ...entry.response.headers.map(([n, v]) => `${n}: ${v}`),
              entry.response.body.slice(0, 4096),
            ].join('\n'),
          );
        // The report's budget names the signing account; a view by origin alone has no account counter.
        this.showEntry(entry, result.resolved.origin, result.report.budget);
        this.changed.fire();
        return entry;
      }
    }
  }

  private setBusy(busy: boolean): void {
    this.busy = busy;
    const state = this.panel.current();
    if (state) this.panel.show({ ...state, busy, now: Date.now() }, false);
  }

  /** The panel state for `entry`, with the budget of its origin now. */
  stateFor(entry: PanelEntryT | undefined, origin?: string, budget?: BudgetView): PanelStateT {
    const o = origin ?? (entry ? new URL(entry.request.url).origin : undefined);
    const view = budget ?? (o ? this.network().budget.view(o, this.accounts.get(o)) : undefined);
    return {
      current: entry,
      budget: view ? lazy().budgetState(view) : undefined,
      history: this.history.list().map(lazy().historyItem),
      now: Date.now(),
      busy: this.busy,
    };
  }

  showEntry(entry: PanelEntryT, origin?: string, budget?: BudgetView): void {
    this.panel.show(this.stateFor(entry, origin, budget));
  }

  showPanel(): void {
    this.panel.show(this.stateFor(this.history.list()[0]));
  }

  private async keyFor(resolved: ResolvedRequest): Promise<KeyChoice | undefined> {
    const profile = resolved.keyProfile ?? 'default';
    const stored = await this.keys.get(profile);
    if (stored)
      return {
        key: { apiKey: stored.apiKey, secretKey: stored.secretKey },
        binding: { profile, origins: stored.origins, source: 'SecretStorage' },
      };
    const demo = profile === 'sandbox' && isLoopbackOrigin(resolved.origin);
    const action = demo ? 'Store the Sandbox Demo Key' : 'Add API Key';
    void vscode.window
      .showWarningMessage(`TradeReq: no key for profile "${profile}". Nothing was sent.`, action)
      .then(async (c) => {
        if (c === 'Add API Key') await vscode.commands.executeCommand('tradereq.addApiKey', profile, resolved.origin);
        else if (c) await this.storeDemoKey(resolved.origin);
      });
    return undefined;
  }

  async storeDemoKey(origin: string): Promise<void> {
    const demo = lazy().DEMO_ACCOUNTS[0]!;
    await this.keys.store('sandbox', { apiKey: demo.apiKey, secretKey: demo.secretKey, origins: [origin] });
    void vscode.window.showInformationMessage(
      `TradeReq: stored the sandbox's demo key (${maskApiKey(demo.apiKey)}) as profile "sandbox", bound to ${origin}.`,
    );
  }

  /**
   * A key not bound to the origin: refused, and nothing is sent. The user may bind it, after an
   * explicit confirmation in a modal dialog, and the request is then sent again.
   */
  private offerBinding(
    resolved: ResolvedRequest,
    choice: KeyChoice,
    message: string,
    resend: () => unknown,
  ): Promise<boolean> {
    const bind = `Bind to ${resolved.origin}…`;
    void vscode.window.showWarningMessage(`TradeReq: ${message}`, bind).then(async (c) => {
      if (c !== bind) return;
      const allow = 'Allow and Send';
      const answer = await vscode.window.showWarningMessage(
        `Allow key profile "${choice.binding.profile}" to be sent to ${resolved.origin}?`,
        {
          modal: true,
          detail: `It is bound to ${choice.binding.origins.join(', ') || 'no origin'} now. Whoever can edit this request file or tradereq.env.json chooses where a request goes: allow only an origin you trust with this key.`,
        },
        allow,
      );
      if (answer !== allow) return;
      await this.keys.bind(choice.binding.profile, resolved.origin);
      this.log.info(`key profile "${choice.binding.profile}" bound to ${resolved.origin} after confirmation`);
      await resend();
    });
    return Promise.resolve(false);
  }

  private async confirm(resolved: ResolvedRequest, order: string): Promise<boolean> {
    const send = 'Send';
    try {
      const answer = await vscode.window.showWarningMessage(
        `Send ${order}?`,
        {
          modal: true,
          detail: `Environment "${resolved.environment.name}" (${resolved.origin})${resolved.options.confirm ? ' · # @confirm' : ' asks before every order'}.`,
        },
        send,
      );
      return answer === send;
    } catch (e) {
      // A dialog that cannot be shown is no confirmation: nothing is sent.
      this.log.warn(
        `the confirmation dialog could not be shown (${e instanceof Error ? e.message : String(e)}); not sent`,
      );
      return false;
    }
  }

  /** The one-click query of an order whose outcome is unknown. */
  async queryOrder(id: string): Promise<void> {
    const entry = this.history.find(id);
    const ref = entry?.orderRef;
    if (!ref || !this.trusted()) return;
    // Built as data from ids of the documented shape: an id from the server cannot add lines to a request.
    const doc = lazy().orderQueryDocument(entry.request.url, ref, `Query the order of "${entry.title}"`);
    if (!doc) {
      this.log.warn('not sent: the order to query has no id of the documented shape');
      return;
    }
    await this.run(doc, doc.requests[0]!);
  }

  /** "Sign only": the request exactly as it would be sent, the API key masked. */
  async signOnly(document: vscode.TextDocument, index: number): Promise<string | undefined> {
    const prepared = await this.prepareForDisplay(document, index);
    if (!prepared) return undefined;
    const { p, headers } = prepared;
    return [
      `${p.method} ${p.url}`,
      ...headers.map(([n, v]) => `${n}: ${v}`),
      '',
      ...(p.body ? [p.body, ''] : []),
      p.signed ? `# query:       ${p.query}` : '# not signed',
      ...(p.signed
        ? [`# body:        ${p.body}`, `# totalParams: ${p.totalParams}`, `# signature:   ${p.signature}`]
        : []),
    ].join('\n');
  }

  /** "Copy as cURL": the API key as a shell variable, never the secret. */
  async curl(document: vscode.TextDocument, index: number): Promise<string | undefined> {
    const prepared = await this.prepareForDisplay(document, index);
    if (!prepared) return undefined;
    const { p, profile } = prepared;
    const quote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;
    const lines = [`curl -X ${p.method} ${quote(p.url)}`];
    for (const [n, v] of p.headers) {
      lines.push(
        n.toLowerCase() === p.apiKeyHeader?.toLowerCase()
          ? `-H "${n}: $${profileEnvPrefix(profile ?? 'default')}API_KEY"`
          : `-H ${quote(`${n}: ${v}`)}`,
      );
    }
    if (p.body) lines.push(`--data-raw ${quote(p.body)}`);
    return lines.join(' \\\n  ');
  }

  private async prepareForDisplay(
    document: vscode.TextDocument,
    index: number,
  ): Promise<{ p: PreparedRequest; headers: [string, string][]; profile?: string } | undefined> {
    if (!this.trusted()) return undefined;
    await this.environments.ready();
    const doc = this.models.get(document);
    const request = doc.requests[index];
    if (!request) return undefined;
    const { resolveRequest, defaultContext } = await import('../core/format/resolve');
    const resolved = resolveRequest(
      doc,
      request,
      defaultContext(this.environments.current(), {
        response: (n) => this.responses.get(n),
        now: () => this.network().clock.correctedNow(new URL(this.environments.current().baseUrl).origin),
      }),
    );
    if (!resolved.ok) {
      void vscode.window.showErrorMessage(`TradeReq: ${resolved.diagnostics[0]!.message}`);
      return undefined;
    }
    const choice = resolved.value.signed ? await this.keyFor(resolved.value) : undefined;
    if (resolved.value.signed && !choice) return undefined;
    const prepared = lazy().prepareRequest(resolved.value, { key: choice?.key });
    if (!prepared.ok) {
      void vscode.window.showErrorMessage(`TradeReq: ${prepared.message}`);
      return undefined;
    }
    return { p: prepared.value, headers: lazy().redactedHeaders(prepared.value), profile: resolved.value.keyProfile };
  }

  dispose(): void {
    this.changed.dispose();
    void this.net?.sender.close();
  }
}
