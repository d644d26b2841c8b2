/**
 * The context keys the walkthrough's steps complete on ("onContext:…" in package.json's
 * contributes.walkthroughs): each set to true the first time its event happens in a window, by one
 * setContext and nothing else, so neither activation nor a send waits for it.
 */
import * as vscode from 'vscode';

export const MILESTONES = {
  starterCreated: 'tradereq.starterCreated',
  requestSent: 'tradereq.requestSent',
  apiKeyAdded: 'tradereq.apiKeyAdded',
  testRunEnded: 'tradereq.testRunEnded',
} as const;

const reached = new Set<keyof typeof MILESTONES>();

export function reach(milestone: keyof typeof MILESTONES): void {
  if (reached.has(milestone)) return;
  reached.add(milestone);
  void vscode.commands.executeCommand('setContext', MILESTONES[milestone], true);
}
