// Tests module loaded by the extension host (extensionTestsPath): runs every *.test.js beside it with mocha.
// The same run() serves the real VS Code server harness (test/harness/run-vscode-tests.js) and @vscode/test-electron.
import * as fs from 'node:fs';
import * as path from 'node:path';
import Mocha from 'mocha';
import * as vscode from 'vscode';

/**
 * The files of the host's display language: `*.test.js` in English, `*.<locale>.test.js` only
 * in that display language (`vscode.env.language`, e.g. zh-cn: run-vscode-tests.js --locale zh-cn).
 */
function suiteFiles(files: readonly string[], language: string): string[] {
  const localeOf = (f: string): string => /\.([a-z]{2,3}(?:-[a-z0-9]+)*)\.test\.js$/.exec(f)?.[1] ?? 'en';
  const wanted = /^en\b/i.test(language) ? 'en' : language.toLowerCase();
  return files.filter((f) => f.endsWith('.test.js') && localeOf(f) === wanted).sort();
}

export function run(): Promise<void> {
  // A generous ceiling: a busy machine is slower, and every wait inside a test is on an event.
  const mocha = new Mocha({ ui: 'tdd', color: false, timeout: 60000 });
  const files = suiteFiles(fs.readdirSync(__dirname), vscode.env.language);
  for (const f of files) mocha.addFile(path.join(__dirname, f));

  return new Promise((resolve, reject) => {
    if (files.length === 0) {
      reject(new Error(`no *.test.js files for display language ${vscode.env.language} in ${__dirname}`));
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
