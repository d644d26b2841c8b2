/**
 * Every link of README.md and docs/*.md leads somewhere (issue 23: the README is a front door to
 * the pages of docs/): a relative link names a file or folder of the repository, an `#anchor` (in
 * the same page, or another's as in `cli.md#tradereq-test`) is the GitHub slug of a heading of its
 * page, an image is a file, and an http(s) link is a well-formed URL (never fetched: the tests
 * have no internet). Links inside code are not links.
 */
import assert from 'node:assert/strict';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve, sep } from 'node:path';
import { ROOT } from '../../support/cli';
import { anchors, IMAGE, type Link, links, slug } from '../../support/markdown-links';

/** Why an http(s) link is not well formed, or undefined. */
function badUrl(target: string): string | undefined {
  try {
    const url = new URL(target);
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'not http(s)';
    if (!/^[a-z0-9-]+(?:\.[a-z0-9-]+)*$/i.test(url.hostname) || url.hostname.startsWith('-')) return 'no host';
    return undefined;
  } catch {
    return 'not a URL';
  }
}

/** Why `link` of the page `file` (repository-relative, under `root`) leads nowhere, or undefined. */
function brokenBecause(root: string, file: string, link: Link): string | undefined {
  const { target, image } = link;
  if (target === '') return 'empty target';
  if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return /^https?:/i.test(target) ? badUrl(target) : 'not an http(s) link';
  if (target.startsWith('/')) return 'an absolute path';
  const hash = target.indexOf('#');
  const path = hash < 0 ? target : target.slice(0, hash);
  const anchor = hash < 0 ? undefined : decodeURIComponent(target.slice(hash + 1));
  const full = path === '' ? resolve(root, file) : resolve(root, dirname(file), decodeURI(path));
  if (full !== root && !full.startsWith(root + sep)) return 'outside the repository';
  if (!existsSync(full)) return 'no such file';
  if (image && (!statSync(full).isFile() || !IMAGE.test(full))) return 'not an image file';
  if (anchor === undefined) return undefined;
  if (!full.endsWith('.md') || !statSync(full).isFile()) return 'an anchor into a file that is not Markdown';
  return anchors(readFileSync(full, 'utf8')).has(anchor) ? undefined : `no heading "#${anchor}"`;
}

/** The links of the pages of `root` (its README.md and docs/*.md) that lead nowhere: `file:line: target (why)`. */
function brokenLinks(root: string): string[] {
  const docs = join(root, 'docs');
  const pages = [
    'README.md',
    ...readdirSync(docs)
      .filter((f) => f.endsWith('.md'))
      .map((f) => `docs/${f}`),
  ];
  return pages.flatMap((file) =>
    links(readFileSync(join(root, file), 'utf8')).flatMap((link) => {
      const why = brokenBecause(root, file, link);
      return why === undefined ? [] : [`${file}:${link.line}: ${link.target} (${why})`];
    }),
  );
}

describe('every link of the README and of docs/ leads somewhere', () => {
  it('relative links name files, anchors name headings, images exist, http(s) links are well formed', () => {
    const readme = links(readFileSync(join(ROOT, 'README.md'), 'utf8'));
    assert.ok(readme.length >= 15 && readme.some((l) => l.image), `only ${readme.length} links in README.md`);
    assert.ok(
      links(readFileSync(join(ROOT, 'docs', 'cli.md'), 'utf8')).length >= 10,
      'docs/cli.md links its neighbours',
    );
    assert.deepEqual(brokenLinks(ROOT), []);
  });

  it('every page of docs/ is linked from the README', () => {
    const linked = new Set(
      links(readFileSync(join(ROOT, 'README.md'), 'utf8')).map((l) => l.target.replace(/#.*$/, '')),
    );
    const pages = readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md'));
    assert.deepEqual(
      pages.filter((f) => !linked.has(`docs/${f}`)),
      [],
    );
  });

  it('GitHub slugs: code, punctuation and links dropped, repeated headings numbered', () => {
    assert.equal(slug('`tradereq listen`'), 'tradereq-listen');
    assert.equal(slug('Import: cURL, Postman, `.http`'), 'import-curl-postman-http');
    assert.equal(slug('Environments: `tradereq.env.json`'), 'environments-tradereqenvjson');
    assert.equal(slug("The README's screenshot"), 'the-readmes-screenshot');
    assert.equal(slug('§5 Signing [rule](x.md) 4'), '5-signing-rule-4');
    assert.deepEqual([...anchors('# A\n## B\n```\n## C\n```\n## B\n')], ['a', 'b', 'b-1']);
  });

  it('finds each kind of broken link, and passes the ones that lead somewhere', () => {
    const root = mkdtempSync(join(tmpdir(), 'tradereq-links-'));
    try {
      mkdirSync(join(root, 'docs', 'images'), { recursive: true });
      writeFileSync(join(root, 'docs', 'images', 'shot.png'), 'PNG');
      writeFileSync(join(root, 'LICENSE'), 'text');
      const page = ['# Page', '## Two words', 'See [there](../README.md#top) and [here](#two-words).'];
      writeFileSync(join(root, 'docs', 'page.md'), page.join('\n'));
      const readme = [
        '# Top', // line 1
        '![shot](docs/images/shot.png) [page](docs/page.md#two-words) [licence](LICENSE) [docs](docs)',
        '[site](https://example.com/a?b=c#d) <https://example.org> `[not a link](nowhere.md)`',
        '```',
        '[in code](nowhere.md)',
        '```', // lines 4-6
        '[gone](docs/gone.md) [anchor](docs/page.md#three-words) [self](#nothing)', // line 7
        '![missing](docs/images/none.png) ![not an image](LICENSE) [up](../outside.md)', // line 8
        '[bad url](https://) [ftp](ftp://example.com/x) [abs](/docs/page.md) [into text](LICENSE#x)',
        '[ref]: docs/nope.md', // line 10
        '<img alt="gone" src="docs/images/gone.png"> <a href="docs/gone.md#x">gone</a> `<img src="no.png">`',
      ];
      writeFileSync(join(root, 'README.md'), readme.join('\n'));
      assert.deepEqual(brokenLinks(root), [
        'README.md:7: docs/gone.md (no such file)',
        'README.md:7: docs/page.md#three-words (no heading "#three-words")',
        'README.md:7: #nothing (no heading "#nothing")',
        'README.md:8: docs/images/none.png (no such file)',
        'README.md:8: LICENSE (not an image file)',
        'README.md:8: ../outside.md (outside the repository)',
        'README.md:9: https:// (not a URL)',
        'README.md:9: ftp://example.com/x (not an http(s) link)',
        'README.md:9: /docs/page.md (an absolute path)',
        'README.md:9: LICENSE#x (an anchor into a file that is not Markdown)',
        'README.md:10: docs/nope.md (no such file)',
        'README.md:11: docs/images/gone.png (no such file)',
        'README.md:11: docs/gone.md#x (no such file)',
      ]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
