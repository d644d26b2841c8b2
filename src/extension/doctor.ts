import * as vscode from 'vscode';
import { BOUNDS, HISTORY_LIMIT } from '../core/bounds';
import type { Diagnosis, DoctorInput, DoctorKey, SentRequest, ServerClock } from '../core/doctor/types';
import { DEMO_ACCOUNTS, isLoopbackOrigin, SANDBOX_PROFILE } from '../core/env/demo';
import { maskApiKey } from '../core/env/keys';
import { nodeCrypto } from '../core/node-lazy';
import type { PanelEntry } from '../core/panel/protocol';
import { WHY_CODES, whyAdvice } from '../core/panel/why-codes';
import { normaliseOrigin } from '../core/request/origin-binding';
import { err, ok, type Result } from '../core/result';
import type { History } from './history';
import type { KeyStore } from './keys';
import { lazy, tools } from './lazy';
import { editorNetworkSettings } from './proxy-settings';
import type { Network } from './network';

const SCHEME = 'tradereq-doctor';
/** The title of the doctor's input box and pick: the command's own. */
const title = (): string => vscode.l10n.t('TradeReq: Explain a Rejected Request');

/** The doctor's GET /api/v3/time: a few seconds at most, then the report goes on without the server clock. */
const CLOCK_SETTINGS = {
  connectTimeoutMs: 3_000,
  headersTimeoutMs: 3_000,
  bodyTimeoutMs: 3_000,
  maxResponseBytes: 64 * 1024,
  deadlineMs: 4_000,
} as const;

/** A key profile the doctor may check against, with the origins its owner approved. */
interface Candidate {
  readonly key: DoctorKey;
  readonly origins: readonly string[];
  /** The sandbox's public demo key, offered for loopback origins when no profile "sandbox" is stored. */
  readonly demo: boolean;
}

export interface DoctorParts {
  readonly keys: KeyStore;
  readonly history: History;
  readonly network: Network;
  readonly log: vscode.LogOutputChannel;
}

/**
 * The signature doctor in the editor (core/doctor/): Explain a Rejected Request on a selection or
 * a pasted line, and the panel's Why? on a send of the history. Keys come from SecretStorage (the
 * sandbox's demo key for loopback origins); the report, which masks every key, opens as a
 * read-only `tradereq-doctor:` document beside. No input and no key is logged.
 */
export class Doctor implements vscode.TextDocumentContentProvider, vscode.Disposable {
  /** The reports of this session, by id: as many as the history keeps sends. */
  private readonly reports = new Map<string, string>();
  private registration: vscode.Disposable | undefined;

  constructor(private readonly parts: DoctorParts) {}

  provideTextDocumentContent(uri: vscode.Uri): string {
    const id = new URLSearchParams(uri.query).get('id');
    return (
      (id !== null && this.reports.get(id)) ||
      vscode.l10n.t('This report is no longer kept: run the doctor again.') + '\n'
    );
  }

  /** Explain a Rejected Request: the selection, else a pasted line; resolves to the report shown. */
  async explainInput(): Promise<string | undefined> {
    const text = await inputText();
    if (text === undefined) return undefined;
    let read = tools().readSentRequest(text);
    // Its message may quote the text: quoted again with every stored secret hidden (read only then).
    if (!read.ok)
      read = tools().readSentRequest(
        text,
        (await this.candidates(undefined)).map((c) => c.key.secretKey),
      );
    if (!read.ok) return failed(read.error);
    const sent = read.value;
    const origin = normaliseOrigin(sent.url);
    const candidates = await this.candidates(origin);
    const chosen = await chooseKey(candidates, origin);
    if (!chosen) return undefined;
    const otherKeys = othersThan(chosen.key, candidates);
    // Judged at the time of the answer pasted with it (its Date header), never now: now only bounds it.
    const input = { sent, key: chosen.key, otherKeys, now: Date.now(), code: sent.code, answer: sent.answer };
    return this.run(input, origin);
  }

  /** Why? on a send of the history: what TradeReq itself signed and sent, with the profile that signed it. */
  async explainEntry(id: string): Promise<string | undefined> {
    const entry = this.parts.history.find(id);
    if (!entry)
      return failed(vscode.l10n.t('that send is no longer in the history (it keeps the last {0}).', HISTORY_LIMIT));
    const refusal = whyRefusal(entry);
    if (refusal !== undefined) return failed(refusal);
    const origin = normaliseOrigin(entry.request.url);
    const candidates = await this.candidates(origin);
    const profile = entry.request.keyProfile;
    const chosen = profile ? candidates.find((c) => c.key.profile === profile) : await chooseKey(candidates, origin);
    if (!chosen)
      return profile
        ? failed(vscode.l10n.t('the key profile "{0}" that signed this send is no longer stored.', profile))
        : undefined;
    const sent = sentByTradeReq(entry, chosen.key);
    if (!sent.ok) return failed(sent.error);
    const otherKeys = othersThan(chosen.key, candidates);
    const { request, apiKeyHeader } = sent.value;
    const input = { sent: request, key: chosen.key, otherKeys, now: Date.now(), sentByTradeReq: true, apiKeyHeader };
    return this.run({ ...input, ...answerOf(entry), code: entry.error?.code }, origin, (d) => whyAdvice(d, entry));
  }

  /** The stored profiles, and the sandbox's demo key for a loopback origin without a profile "sandbox". */
  private async candidates(origin: string | undefined): Promise<Candidate[]> {
    const out: Candidate[] = [];
    for (const { profile } of await this.parts.keys.profiles()) {
      const k = await this.parts.keys.get(profile);
      if (k) out.push({ key: { profile, apiKey: k.apiKey, secretKey: k.secretKey }, origins: k.origins, demo: false });
    }
    if (origin && isLoopbackOrigin(origin) && !out.some((c) => c.key.profile === SANDBOX_PROFILE)) {
      const { apiKey, secretKey } = DEMO_ACCOUNTS[0]!;
      out.push({ key: { profile: SANDBOX_PROFILE, apiKey, secretKey }, origins: [origin], demo: true });
    }
    return out;
  }

  /** Measures the server clock, diagnoses (with Why?'s own advice, `advise`), and shows the report beside. */
  private async run(
    input: Omit<DoctorInput, 'clock'>,
    origin: string | undefined,
    advise: (d: Diagnosis) => Diagnosis = (d) => d,
  ): Promise<string> {
    const clock = origin ? await this.serverClock(origin) : undefined;
    const { diagnose, reportText } = tools();
    const diagnosis = advise(diagnose({ ...input, clock }));
    const text = masked(reportText(diagnosis), [input.key, ...input.otherKeys]);
    this.parts.log.info(
      `signature doctor: cause ${diagnosis.cause}, checked against key profile "${input.key.profile}"`,
    );
    await this.show(text, input.sent);
    return text;
  }

  /**
   * The server's clock from an unsigned GET /api/v3/time at the request's origin (no key goes with
   * it, counted in the IP budget as any send), only in a trusted workspace; undefined when it fails.
   */
  private async serverClock(origin: string): Promise<ServerClock | undefined> {
    if (!vscode.workspace.isTrusted) return undefined;
    const { NodeHttpSender, measureClock, Network: Routes } = lazy();
    const { budget, clock } = this.parts.network.get();
    // A sender of its own closes its own route: the shared one stays with the shared sender.
    const sender = new NodeHttpSender(CLOCK_SETTINGS, new Routes(editorNetworkSettings()));
    try {
      return await measureClock(origin, { sender, budget, clock });
    } catch (e) {
      this.parts.log.warn(
        `signature doctor: the server clock was not measured (${e instanceof Error ? e.name : 'error'})`,
      );
      return undefined;
    } finally {
      void sender.close();
    }
  }

  private async show(text: string, sent: SentRequest): Promise<void> {
    this.registration ??= vscode.workspace.registerTextDocumentContentProvider(SCHEME, this);
    const id = nodeCrypto().randomUUID();
    this.reports.set(id, text);
    // The oldest first: past the history's length a report is no longer kept.
    for (const old of this.reports.keys()) {
      if (this.reports.size <= HISTORY_LIMIT) break;
      this.reports.delete(old);
    }
    const uri = vscode.Uri.from({ scheme: SCHEME, path: `/${reportName(sent)}`, query: `id=${id}` });
    const document = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(document, { viewColumn: vscode.ViewColumn.Beside, preview: true });
  }

  dispose(): void {
    this.registration?.dispose();
    this.reports.clear();
  }
}

/** The active editor's selection, else a line pasted in an input box; undefined when none is given. */
async function inputText(): Promise<string | undefined> {
  const editor = vscode.window.activeTextEditor;
  if (editor && !editor.selection.isEmpty) return editor.document.getText(editor.selection);
  const text = await vscode.window.showInputBox({
    title: title(),
    prompt: vscode.l10n.t(
      'Paste what your program sent: a cURL command, a raw HTTP request, a URL and its body, or the line of its log',
    ),
    placeHolder: "curl -X POST 'https://…/api/v3/order?…&signature=…' -H 'X-SERVICE-APIKEY: …'", // l10n-ignore: a command as a program sends it
    ignoreFocusOut: true,
  });
  return text?.trim() ? text : undefined;
}

/** The profile bound to the origin when exactly one is, else the one picked (bound ones first). */
async function chooseKey(candidates: readonly Candidate[], origin: string | undefined): Promise<Candidate | undefined> {
  const bound = candidates.filter((c) => origin !== undefined && c.origins.includes(origin));
  if (bound.length === 1) return bound[0];
  if (candidates.length === 0) {
    void vscode.window.showErrorMessage(
      vscode.l10n.t(
        'TradeReq: no key profile to check the signature with: add the key your program uses with "TradeReq: Add API Key".',
      ),
    );
    return undefined;
  }
  const ordered = [...bound, ...candidates.filter((c) => !bound.includes(c))];
  const items = ordered.map((c) => ({
    label: c.key.profile,
    description: c.demo
      ? vscode.l10n.t('the sandbox demo key · API key {0}', maskApiKey(c.key.apiKey))
      : vscode.l10n.t(
          'bound to {0} · API key {1}',
          c.origins.join(', ') || vscode.l10n.t('no origin'),
          maskApiKey(c.key.apiKey),
        ),
    candidate: c,
  }));
  const picked = await vscode.window.showQuickPick(items, {
    title: title(),
    placeHolder: vscode.l10n.t('Which key profile should the signature be checked against?'),
  });
  return picked?.candidate;
}

/** Every other key known here (the other profiles, the sandbox's demo keys), for the cause wrong-secret. */
function othersThan(key: DoctorKey, candidates: readonly Candidate[]): DoctorKey[] {
  const demo = DEMO_ACCOUNTS.map((a) => ({
    profile: vscode.l10n.t('sandbox demo ({0})', a.name),
    apiKey: a.apiKey,
    secretKey: a.secretKey,
  }));
  const seen = new Set([key.secretKey]);
  return [...candidates.map((c) => c.key), ...demo].filter((k) => !seen.has(k.secretKey) && seen.add(k.secretKey));
}

/** Why Why? cannot check `entry`, if it cannot: the history must hold all that was signed. */
function whyRefusal(entry: PanelEntry): string | undefined {
  const r = entry.request;
  if (!entry.error || !WHY_CODES.includes(entry.error.code) || !r.signed)
    return vscode.l10n.t('Why? explains a signed request rejected with {0}; this send was not.', WHY_CODES.join(', '));
  if ([r.url, r.query, r.body].some((t) => t.length > BOUNDS.historyRequestChars))
    return vscode.l10n.t(
      'this request is longer than the history keeps of one: use Copy as cURL on it and paste that into "TradeReq: Explain a Rejected Request".',
    );
  if (/listenKey"?\s*[=:]\s*"?\*{4}/.test(`${r.query}\n${r.body}`))
    return vscode.l10n.t(
      'the history keeps the listen key of this request masked, so what was signed cannot be checked.',
    );
  return undefined;
}

/** What TradeReq sent for `entry`, as the doctor reads a request: the history masks the API key, which `key`'s own puts back. */
function sentByTradeReq(
  entry: PanelEntry,
  key: DoctorKey,
): Result<{ request: SentRequest; apiKeyHeader?: string }, string> {
  const r = entry.request;
  const mask = maskApiKey(key.apiKey);
  const apiKeyHeader = r.headers.find(([, v]) => v === mask)?.[0];
  if (apiKeyHeader === undefined)
    return err(
      vscode.l10n.t(
        'the key profile "{0}" now holds another API key than the one that signed this send: send it again, then ask Why? on the new answer.',
        key.profile,
      ),
    );
  const headers = r.headers.map(([name, value]) => ({ name, value: value === mask ? key.apiKey : value }));
  const url = r.url.split('?')[0] ?? r.url;
  return ok({
    request: { method: r.method, url, query: r.query, body: r.body, headers, form: 'tradereq' },
    apiKeyHeader,
  });
}

/**
 * When the send of `entry` was answered, for the timestamp to be judged then: its status, the
 * answer's Date header (the server's clock), and the entry's time (kept once the answer was in).
 */
function answerOf(entry: PanelEntry): Pick<DoctorInput, 'answer' | 'at'> {
  const date = entry.response?.headers.find(([name]) => name.toLowerCase() === 'date')?.[1];
  return {
    answer: { ...(entry.status !== undefined ? { status: entry.status } : {}), ...(date ? { date } : {}) },
    at: { ms: entry.at, resolutionMs: 1, from: 'history' },
  };
}

/** The report with every key's secret, and every full API key, masked: the report masks them already. */
function masked(text: string, keys: readonly DoctorKey[]): string {
  const hide = (t: string, value: string, shown: string): string => (value ? t.split(value).join(shown) : t);
  const hidden = vscode.l10n.t('<secret key hidden>');
  return keys.reduce((t, k) => hide(hide(t, k.secretKey, hidden), k.apiKey, maskApiKey(k.apiKey)), text);
}

/** "doctor POST order.txt": the report's name in its tab, from the method and the path's last segment. */
function reportName(sent: SentRequest): string {
  const last = sent.url.split('/').filter(Boolean).at(-1) ?? '';
  return vscode.l10n.t('doctor {0} {1}.txt', sent.method, last.replace(/[^A-Za-z0-9._-]/g, '').slice(0, 60));
}

function failed(message: string): undefined {
  void vscode.window.showErrorMessage(vscode.l10n.t('TradeReq: {0}', message));
  return undefined;
}
