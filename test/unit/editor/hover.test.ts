/** Hover in the display language (issue 23): with the Simplified Chinese bundle loaded, the editor's hover is Chinese. */
import assert from 'node:assert/strict';
import { hoverAt } from '../../../src/core/editor/hover';
import { BUILTIN_SANDBOX } from '../../../src/core/env/schema';
import { parse } from '../../../src/core/format/parser';
import { setL10nBundle } from '../../../src/core/l10n';
import { zhCnBundle } from '../../support/l10n';

/** The hover at the `|` of `text`. */
function hover(text: string): string {
  const lines = text.split('\n');
  const line = lines.findIndex((l) => l.includes('|'));
  const character = lines[line]!.indexOf('|');
  const clean = text.replace('|', '');
  const clock = () => ({ offsetMs: 1234, roundTripMs: 20, measuredAt: Date.UTC(2025, 2, 14, 13, 2, 11) });
  const r = hoverAt(parse(clean), clean.split('\n')[line]!, line, character, { environment: BUILTIN_SANDBOX, clock });
  assert.ok(r, 'a hover');
  return r.markdown;
}

describe('editor: hover in the display language', () => {
  afterEach(() => setL10nBundle(undefined));

  it('700003 with the zh-cn bundle: its meaning, cause, what to do and the clock note are Chinese', () => {
    setL10nBundle(zhCnBundle());
    const md = hover('# 7000|03\nGET /api/v3/account\n');
    assert.match(md, /^\*\*700003\*\*: timestamp 超出了 recvWindow$/m);
    assert.match(md, /^\*\*常见原因\*\*：只有满足 timestamp < serverTime \+ 1000/m);
    assert.match(md, /^\*\*处理建议\*\*：服务未处理任何内容，因此重新发送是安全的/m);
    assert.match(
      md,
      /服务只处理满足 timestamp < serverTime \+ 1000 且 serverTime − timestamp ≤ recvWindow（5000 ms）的请求（规范 §5 规则 9）。上次测量的偏差：你的时钟比服务器慢 1234 ms（往返 20 ms，2025-03-14T13:02:11\.000Z）。$/m,
    );
    assert.doesNotMatch(md, /Usual cause|What to do|measured/, 'no English left');
  });

  it('the same hover with no bundle is the English one, as the command line words it', () => {
    const md = hover('# 7000|03\nGET /api/v3/account\n');
    assert.match(md, /^\*\*700003\*\*: Timestamp is outside of the recvWindow$/m);
    assert.match(md, /^\*\*Usual cause:\*\* A request is processed only when/m);
    assert.match(
      md,
      /Last measured offset: your clock is 1234 ms behind the server \(round trip 20 ms, 2025-03-14T13:02:11\.000Z\)\.$/m,
    );
  });

  it('a code with two meanings, a parameter and a stream are Chinese too', () => {
    setL10nBundle(zhCnBundle());
    assert.ok(
      hover('# 100|07\nGET /api/v3/account\n').startsWith(
        '**10007** 在规范中有 2 种含义（§7.2）：\n\n- 交易对错误\n- 该交易对不支持 API 交易\n\n**常见原因**：',
      ),
    );
    const param = hover('POST /api/v3/order\nrecv|Window = 5000\n');
    assert.match(param, /^\*\*recvWindow\*\*（integer），用于 POST \/api\/v3\/order$/m);
    assert.match(param, /^\*\*规则\*\*：整数，默认 5000，建议不超过 5000，最大 60000$/m);
    assert.match(param, /^_服务已提供文档。_$/m);
    const stream = hover('WS /ws\n[subscribe]\nspot@public.deals.v3.api@BTC|USDT\n');
    assert.match(stream, /^\*\*成交\*\*（公共数据流）：`spot@public\.deals\.v3\.api@BTCUSDT`$/m);
    assert.match(stream, /^- `deals\[\]\.S` \(code\): 吃单方的方向：1 买，2 卖。$/m);
  });
});
