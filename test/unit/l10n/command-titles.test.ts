/**
 * A command named in a message is named as the Command Palette shows it (issue 34, point 8): where
 * the English quotes "TradeReq: Explain a Rejected Request", the Chinese quotes the title of
 * package.nls.zh-cn.json ("TradeReq: 解释被拒绝的请求"), so a zh-cn user finds it by what they read.
 */
import assert from 'node:assert/strict';
import { readMessages, zhCnBundle, type Messages } from '../../support/l10n';

/** Each command's English and Chinese title (package.nls*.json), its trailing "…" aside, longest first. */
function commandTitles(): { en: string; zh: string }[] {
  const en = readMessages('package.nls.json');
  const zh = readMessages('package.nls.zh-cn.json');
  const bare = (title: string): string => title.replace(/…$/, '');
  return Object.keys(en)
    .filter((k) => k.startsWith('command.'))
    .map((k) => ({ en: bare(en[k]!), zh: bare(zh[k] ?? '') }))
    .sort((a, b) => b.en.length - a.en.length);
}

/** The translations that quote a command by its English title where the English does, but not by its Chinese one. */
function misnamed(messages: Messages): string[] {
  const titles = commandTitles();
  const out: string[] = [];
  for (const [key, text] of Object.entries(messages)) {
    // Longest first, and each quoted place taken once: "Import from cURL" is not also "Import…".
    let rest = key;
    for (const title of titles) {
      if (!rest.includes(`TradeReq: ${title.en}`)) continue;
      rest = rest.split(`TradeReq: ${title.en}`).join('');
      const named = [': ', '：'].some((colon) => text.includes(`TradeReq${colon}${title.zh}`));
      // A notification that starts with the command's name ("TradeReq: Compare Two Answers needs…") may quote it alone.
      const opening = key.startsWith(`TradeReq: ${title.en}`) && text.includes(title.zh);
      if (!named && !opening)
        out.push(`${JSON.stringify(key)} → ${JSON.stringify(text)}: name it "TradeReq: ${title.zh}"`);
    }
  }
  return out;
}

describe('l10n: commands named in messages by their zh-cn titles', () => {
  it('every bundle text that quotes "TradeReq: <command>" quotes its Chinese title', () => {
    assert.deepEqual(misnamed(zhCnBundle()), []);
  });

  it('the manifest texts too (settings, the walkthrough)', () => {
    const en = readMessages('package.nls.json');
    const zh = readMessages('package.nls.zh-cn.json');
    const pairs = Object.fromEntries(Object.keys(en).map((k) => [en[k]!, zh[k] ?? '']));
    assert.deepEqual(misnamed(pairs), []);
  });

  it('reports a title left in English, and accepts the palette form with either colon', () => {
    const pairs = {
      'Run "TradeReq: Send Request".': '运行“TradeReq: Send Request”。',
      'Or "TradeReq: Add API Key".': '或“TradeReq：添加 API Key”。',
    };
    assert.deepEqual(misnamed(pairs), [
      '"Run \\"TradeReq: Send Request\\"." → "运行“TradeReq: Send Request”。": name it "TradeReq: 发送请求"',
    ]);
  });
});
