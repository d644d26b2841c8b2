// Writes the JSON schema of tradereq.env.json from the zod schema (esbuild.js calls it on every build).
// Only when it changed: builds may run side by side (npm test builds dist/ and the packages at once).
import { readFileSync, writeFileSync } from 'node:fs';
import { environmentJsonSchema } from '../src/core/env/json-schema';

export function writeEnvSchema(file: string): void {
  const text = JSON.stringify(environmentJsonSchema(), null, 2) + '\n';
  let current: string | undefined;
  try {
    current = readFileSync(file, 'utf8');
  } catch {
    current = undefined; // not written yet
  }
  if (current !== text) writeFileSync(file, text);
}
