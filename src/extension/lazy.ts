import type * as Language from './language';
import type * as Lazy from './lazy/index';
import type * as Tools from './lazy/tools';
import type * as Ws from './lazy/ws';
import { l10nBundle } from '../core/l10n';

let loadedLanguage: typeof Language | undefined;
let loaded: typeof Lazy | undefined;
let loadedTools: typeof Tools | undefined;
let loadedWs: typeof Ws | undefined;

/**
 * The request files' language and the services behind the commands (dist/language.js): what the
 * first request file, provider call or command needs. Activation (dist/extension.js) loads nothing else.
 */
export function language(): typeof Language {
  return (loadedLanguage ??= require('./language.js') as typeof Language);
}

/** The parts loaded on first use (dist/lazy.js, built beside dist/extension.js): what a send needs. */
export function lazy(): typeof Lazy {
  return (loaded ??= speaking(require('./lazy.js') as typeof Lazy));
}

/** The parts no send needs (dist/tools.js): the sandbox, Copy as Code, the importers, Compare Two Answers. */
export function tools(): typeof Tools {
  return (loadedTools ??= require('./tools.js') as typeof Tools);
}

/** The WebSocket client (ws), and the live feed (dist/ws.js): what a Connect needs, no send. */
export function ws(): typeof Ws {
  return (loadedWs ??= speaking(require('./ws.js') as typeof Ws));
}

/**
 * A bundle holds its own copy of core/l10n.ts: hand it the display language's words when it loads.
 * Not tools.js: its sandbox answers on the wire in the service's English, whatever the editor speaks.
 */
function speaking<T extends { setL10nBundle: typeof import('../core/l10n').setL10nBundle }>(module: T): T {
  module.setL10nBundle(l10nBundle());
  return module;
}
