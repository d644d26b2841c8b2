import * as vscode from 'vscode';
import type { CodeLanguage } from '../core/codegen/program-model';
import { t } from '../core/l10n';
import type { DocumentModels } from './documents';
import type { Environments } from './environments';
import { tools } from './lazy';

export interface CopyAsCodeParts {
  readonly models: DocumentModels;
  readonly environments: Environments;
}

/** The language picked last this session, offered first next time. */
let lastLanguage: CodeLanguage | undefined;

async function pickLanguage(): Promise<CodeLanguage | undefined> {
  const items = tools().CODE_LANGUAGES.map((l) => ({ label: t(l.label), description: `.${l.extension}`, id: l.id }));
  items.sort((a, b) => Number(b.id === lastLanguage) - Number(a.id === lastLanguage));
  const picked = await vscode.window.showQuickPick(items, {
    title: vscode.l10n.t('TradeReq: Copy as Code'),
    placeHolder: vscode.l10n.t('The language of the program (it signs when it runs; it holds no key)'),
  });
  return picked?.id;
}

/**
 * Copy as Code: request `index` of `document` as a complete program on the clipboard, resolved
 * against the selected environment as Send resolves it. Nothing is sent and no key is read: the
 * program reads its keys from environment variables when it runs. `language` (a CODE_LANGUAGES id)
 * skips the quick pick. Resolves to the program, or undefined when cancelled or refused (said).
 */
export async function copyAsCode(
  parts: CopyAsCodeParts,
  document: vscode.TextDocument,
  index: number,
  language?: unknown,
): Promise<string | undefined> {
  if (!vscode.workspace.isTrusted) {
    // The program carries the user's keys to the base URL it holds, which an untrusted file could choose.
    void vscode.window.showWarningMessage(
      vscode.l10n.t(
        'TradeReq: Copy as Code needs a trusted workspace: an untrusted request file or tradereq.env.json could point the program anywhere.',
      ),
    );
    return undefined;
  }
  await parts.environments.ready(document.uri);
  const doc = parts.models.get(document);
  const request = doc.requests[index];
  if (!request) return undefined;
  const { isCodeLanguage, codeRequestFrom, generateCode, programNeeds, CODE_LANGUAGES } = tools();
  const chosen = typeof language === 'string' && isCodeLanguage(language) ? language : await pickLanguage();
  if (!chosen) return undefined;
  const model = codeRequestFrom(doc, request, parts.environments.current(document.uri));
  if (!model.ok) {
    void vscode.window.showErrorMessage(vscode.l10n.t('TradeReq: not copied as code: {0}', model.error.message));
    return undefined;
  }
  const program = generateCode(model.value, chosen);
  if (!program.ok) {
    void vscode.window.showErrorMessage(
      vscode.l10n.t('TradeReq: this request cannot become a program: {0}', program.error),
    );
    return undefined;
  }
  lastLanguage = chosen;
  await vscode.env.clipboard.writeText(program.value);
  const label = CODE_LANGUAGES.find((l) => l.id === chosen)?.label ?? chosen;
  void vscode.window.showInformationMessage(
    vscode.l10n.t(
      'TradeReq: copied as a {0} program. {1} The program holds no key.',
      t(label),
      programNeeds(model.value),
    ),
  );
  return program.value;
}
