/** The JSON schema of tradereq.env.json, generated from the zod schema so the two cannot drift. */
import * as z from '../zod-mini';
import { EnvironmentFileSchema } from './schema';

export function environmentJsonSchema(): Record<string, unknown> {
  return {
    ...z.toJSONSchema(EnvironmentFileSchema, { io: 'input', target: 'draft-7' }),
    title: 'TradeReq environments (tradereq.env.json)',
  };
}
