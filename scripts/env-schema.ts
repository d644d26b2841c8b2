// Writes the JSON schema of tradereq.env.json from the zod schema (esbuild.js calls it on every build).
import { writeFileSync } from 'node:fs';
import { environmentJsonSchema } from '../src/core/env/json-schema';

export function writeEnvSchema(file: string): void {
  writeFileSync(file, JSON.stringify(environmentJsonSchema(), null, 2) + '\n');
}
