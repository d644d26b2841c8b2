/**
 * The walkthrough "Get started with TradeReq" as package.json contributes it (issue 23): its strings
 * are `%key%`s that package.nls.json and its Simplified Chinese translation both hold, the
 * translations keep every command link; each step completes itself and shows an SVG
 * of the project's, drawn in the theme's colours (VS Code's `svg` media kind puts it in a webview
 * whose CSP allows no style sheet, so colours are presentation attributes) and labelled with its
 * alt text. In the real VS Code: test/integration/starter.test.ts and test/ui/walkthrough.test.js.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '..', '..', '..');
const json = (file: string): unknown => JSON.parse(readFileSync(join(ROOT, file), 'utf8'));

interface Step {
  id: string;
  title: string;
  description: string;
  media: { svg?: string; altText?: string };
  completionEvents?: string[];
}
interface Walkthrough {
  id: string;
  title: string;
  description: string;
  steps: Step[];
}
interface Manifest {
  contributes: { walkthroughs: Walkthrough[]; commands: { command: string; title: string }[] };
}

const manifest = json('package.json') as Manifest;
const english = json('package.nls.json') as Record<string, string>;
const chinese = json('package.nls.zh-cn.json') as Record<string, string>;
const [walkthrough] = manifest.contributes.walkthroughs;
const keyOf = (value: string): string => /^%([^%]+)%$/.exec(value)?.[1] ?? assert.fail(`"${value}" is not a %key%`);
/** The English text of a manifest value (a %key%). */
const en = (value: string): string => english[keyOf(value)] ?? assert.fail(`${value} is not in package.nls.json`);

describe('the walkthrough "Get started with TradeReq"', () => {
  it('is one walkthrough of five steps: starter, sandbox, send, key, tests', () => {
    assert.equal(manifest.contributes.walkthroughs.length, 1);
    assert.equal(walkthrough?.id, 'getStarted');
    assert.equal(en(walkthrough.title), 'Get started with TradeReq');
    assert.deepEqual(
      walkthrough.steps.map((s) => s.id),
      ['createStarter', 'startSandbox', 'sendRequest', 'addApiKey', 'runTests'],
    );
  });

  it('every string is a %key% of package.nls.json, translated in package.nls.zh-cn.json with the same command links, and no code span', () => {
    const values = [
      walkthrough!.title,
      walkthrough!.description,
      ...walkthrough!.steps.flatMap((s) => [s.title, s.description, s.media.altText ?? '']),
      ...manifest.contributes.commands
        .filter((c) => c.command === 'tradereq.createStarterWorkspace')
        .map((c) => c.title),
    ];
    // A link's target, in order (its label is worded anew).
    const links = (text: string): string[] => [...text.matchAll(/\]\([^)]+\)/g)].map((m) => m[0]);
    for (const value of values) {
      const key = keyOf(value);
      const zh = chinese[key] ?? assert.fail(`${key} is not in package.nls.zh-cn.json`);
      assert.match(zh, /[\u4e00-\u9fff]/, `${key} is translated`);
      assert.deepEqual(links(zh), links(en(value)), key);
      // A walkthrough shows a code span's backticks as typed (bold and links it renders).
      assert.ok(!en(value).includes('`') && !zh.includes('`'), `${key} has no code span`);
    }
  });

  it('every step completes itself: on a command of the extension, or on a context key of its own (set by src/extension/milestones.ts)', () => {
    const commands = new Set(manifest.contributes.commands.map((c) => c.command));
    for (const step of walkthrough!.steps) {
      assert.ok(step.completionEvents?.length, `${step.id} has completion events`);
      for (const event of step.completionEvents) {
        assert.match(event, /^(onCommand|onContext):tradereq\.\w+$/);
        if (event.startsWith('onCommand:')) assert.ok(commands.has(event.slice('onCommand:'.length)), event);
      }
    }
  });

  for (const step of walkthrough!.steps) {
    it(`${step.id}: an SVG of media/walkthrough/, in the theme's colours, labelled with the step's alt text`, () => {
      const file = step.media.svg ?? assert.fail(`${step.id} has an svg`);
      assert.match(file, /^media\/walkthrough\/[a-z-]+\.svg$/);
      assert.ok(existsSync(join(ROOT, file)), file);
      const svg = readFileSync(join(ROOT, file), 'utf8');
      assert.match(
        svg,
        /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" viewBox="0 0 \d+ \d+"[^>]* role="img" aria-labelledby="title">/,
      );
      const title = /<title id="title">([^<]*)<\/title>/.exec(svg)?.[1];
      assert.equal(title, en(step.media.altText ?? ''), 'the SVG says what the alt text says');
      // The webview's CSP admits no <style>, no style attribute, nothing fetched; no script runs.
      assert.doesNotMatch(svg, /<style|style=|<script|<image|<foreignObject|\bon\w+=|href="(?!#)/);
      for (const [, attribute, value] of svg.matchAll(/\s(fill|stroke)="([^"]*)"/g))
        assert.ok(value === 'none' || value!.startsWith('var(--vscode-'), `${attribute}="${value}": a theme colour`);
    });
  }
});
