/** `tradereq state`: the rate-limit state shared by the command line and the editor, shown and reset. */
import { Budget, type BudgetView } from '../core/budget/budget';
import { defaultStateDir, FileStateStore } from '../core/budget/state';
import { normaliseOrigin } from '../core/request/origin-binding';
import { parseCommand } from './args';
import { budgetText } from './budget-text';
import { CLI, STATE } from './messages';
import { UsageError, type Io } from './usage';

export async function stateCommand(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseCommand('state', args, { json: { type: 'boolean' } });
  if (values.help) {
    io.out(STATE.help(defaultStateDir()));
    return 0;
  }
  const [action = 'show', origin, ...extra] = positionals;
  if (extra.length > 0 || (action === 'show' && origin !== undefined)) throw new UsageError(STATE.tooManyArguments);
  const store = new FileStateStore(defaultStateDir(io.env));
  if (action === 'show') return show(store, io, values.json === true);
  if (action !== 'reset') throw new UsageError(STATE.unknownAction(action));
  const normal = origin === undefined ? undefined : normaliseOrigin(origin);
  if (origin !== undefined && normal === undefined) throw new UsageError(STATE.notAnOrigin(origin));
  const done = await new Budget(store).reset(normal);
  if (!done.ok) {
    io.err(CLI.said(STATE.notReset(done.error)));
    return 1;
  }
  io.out(normal ? STATE.resetOne(normal) : STATE.resetAll);
  return 0;
}

function show(store: FileStateStore, io: Io, json: boolean): number {
  const state = store.read();
  const budget = new Budget(store);
  const views: BudgetView[] = Object.keys(state.origins).map((origin) => {
    const accounts = Object.keys(state.origins[origin]!.accounts);
    return budget.view(origin, accounts[0]);
  });
  if (state.damaged) io.out(STATE.unreadable(store.path, state.damaged.reason));
  if (json) {
    for (const v of views) io.out(JSON.stringify(v));
  } else if (views.length === 0 && !state.damaged) {
    io.out(STATE.empty(store.path));
  } else {
    for (const v of views) io.out(`${v.origin}: ${budgetText(v)}${v.damaged ? `\n  ${v.damaged}` : ''}`);
  }
  return 0;
}
