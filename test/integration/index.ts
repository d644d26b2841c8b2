// Tests module loaded by the extension host (extensionTestsPath): runs every *.test.js beside it with mocha.
// The same run() serves the real VS Code server harness (test/harness/run-vscode-tests.js) and @vscode/test-electron.
import * as fs from 'node:fs';
import * as path from 'node:path';
import Mocha from 'mocha';

export function run(): Promise<void> {
  // A generous ceiling: a busy machine is slower, and every wait inside a test is on an event.
  const mocha = new Mocha({ ui: 'tdd', color: false, timeout: 60000 });
  const files = fs
    .readdirSync(__dirname)
    .filter((f) => f.endsWith('.test.js'))
    .sort();
  for (const f of files) mocha.addFile(path.join(__dirname, f));

  return new Promise((resolve, reject) => {
    if (files.length === 0) {
      reject(new Error(`no *.test.js files in ${__dirname}`));
      return;
    }
    try {
      const runner = mocha.run((failures) => {
        const { passes = 0, pending = 0 } = runner.stats ?? {};
        // Plain closing line that CI reads: "N passed, N failed".
        console.log(`integration: ${passes} passed, ${failures} failed${pending ? `, ${pending} skipped` : ''}`);
        if (failures > 0) reject(new Error(`${failures} integration test(s) failed`));
        else resolve();
      });
    } catch (e) {
      reject(e instanceof Error ? e : new Error(String(e)));
    }
  });
}
