// Writes media/tradereq.env.schema.json from the zod schema (run by esbuild.js on every build).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { environmentJsonSchema } from '../src/core/env/json-schema';

writeFileSync(join(__dirname, '..', 'media', 'tradereq.env.schema.json'), JSON.stringify(environmentJsonSchema(), null, 2) + '\n');
