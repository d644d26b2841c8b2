/** Where the state lives, apart from the state's code (and zod), for what needs only the folder. */
import { homedir } from 'node:os';
import { join } from 'node:path';

/** `TRADEREQ_STATE_DIR`, else the platform's state folder. */
export function defaultStateDir(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): string {
  if (env['TRADEREQ_STATE_DIR']) return env['TRADEREQ_STATE_DIR'];
  if (platform === 'win32') return join(env['LOCALAPPDATA'] ?? join(homedir(), 'AppData', 'Local'), 'TradeReq');
  if (platform === 'darwin') return join(homedir(), 'Library', 'Application Support', 'TradeReq');
  return join(env['XDG_STATE_HOME'] ?? join(homedir(), '.local', 'state'), 'tradereq');
}
