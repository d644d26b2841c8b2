/** `tradereq state`: the rate-limit state shared by the command line and the editor, shown and reset. */
import { Budget, type BudgetView } from '../core/budget/budget';
import { defaultStateDir, FileStateStore } from '../core/budget/state';
import { normaliseOrigin } from '../core/request/origin-binding';
import { parseCommand } from './args';
import { budgetText } from './budget-text';
import { UsageError, type Io } from './usage';

/** The help, made when asked for: it names the state folder, which is not worked out otherwise. */
export function stateHelp(): string {
  return `Usage: tradereq state [show] [--json]
       tradereq state reset [ORIGIN]

The rate-limit state that every tradereq command and the VS Code extension share: per origin, the
weight used in the last 10 s, a Retry-After wait or ban in force, and the measured clock offset.

  show          each origin's budget, wait or ban (the default)
  reset ORIGIN  forget ORIGIN's counters, wait, ban and damage (e.g. http://127.0.0.1:8780)
  reset         forget everything: every origin, and the damage of a file that cannot be read
  --json        show as one JSON object per origin, one per line
  -h, --help    this help

When the state cannot be read (a truncated file, an entry that does not validate), TradeReq sends
nothing to the origins concerned until it is reset, so that a ban or a Retry-After wait is never
lifted by accident. Reset only once you know no ban is in force.

The state lives in ${defaultStateDir()} (TRADEREQ_STATE_DIR overrides),
beside answers.json: the last answer of each named request that \`tradereq send\` received (listen
keys masked), which send and sign read for {{NAME.response.PATH}} of a request they do not send.

Exit codes: 0 shown or reset; 1 the state could not be written (nothing was reset); 2 bad input.`;
}

export function stateCommand(args: string[], io: Io): number {
  const { values, positionals } = parseCommand('state', args, { json: { type: 'boolean' } });
  if (values.help) {
    io.out(stateHelp());
    return 0;
  }
  const [action = 'show', origin, ...extra] = positionals;
  if (extra.length > 0 || (action === 'show' && origin !== undefined))
    throw new UsageError('too many arguments. See: tradereq state --help');
  const store = new FileStateStore(defaultStateDir(io.env));
  if (action === 'show') return show(store, io, values.json === true);
  if (action !== 'reset')
    throw new UsageError(`unknown action "${action}": use show or reset. See: tradereq state --help`);
  const normal = origin === undefined ? undefined : normaliseOrigin(origin);
  if (origin !== undefined && normal === undefined)
    throw new UsageError(`"${origin}" is not an origin such as https://api.example.com`);
  const done = new Budget(store).reset(normal);
  if (!done.ok) {
    io.err(`tradereq: ${done.error}: nothing was reset`);
    return 1;
  }
  io.out(normal ? `The rate-limit state of ${normal} was reset.` : `The rate-limit state was reset: every origin.`);
  return 0;
}

function show(store: FileStateStore, io: Io, json: boolean): number {
  const state = store.read();
  const budget = new Budget(store);
  const views: BudgetView[] = Object.keys(state.origins).map((origin) => {
    const accounts = Object.keys(state.origins[origin]!.accounts);
    return budget.view(origin, accounts[0]);
  });
  if (state.damaged) {
    io.out(
      `The rate-limit state in ${store.path} could not be read (${state.damaged.reason}): nothing is sent anywhere until "tradereq state reset".`,
    );
  }
  if (json) {
    for (const v of views) io.out(JSON.stringify(v));
  } else if (views.length === 0 && !state.damaged) {
    io.out(`No origin has rate-limit state in ${store.path}.`);
  } else {
    for (const v of views) io.out(`${v.origin}: ${budgetText(v)}${v.damaged ? `\n  ${v.damaged}` : ''}`);
  }
  return 0;
}
