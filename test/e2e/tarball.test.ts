/**
 * The two packages of `npm run package`. The .vsix: what `vsce ls` lists and nothing else, every
 * file a user needs, the icon, the walkthrough and its images, a README whose every link and image
 * leads into the package (or to an https URL), and the checks Open VSX makes that run offline. Then `tradereq` from its npm tarball, as on a machine that has only Node and that file: `npm run
 * package` makes the .vsix and the tarball from one build and one version; the tarball holds the
 * built CLI, the starter `tradereq init` writes, the README and the licence and nothing else, its
 * manifest names only files it holds (bin, exports; no main), needs no dependency, installs offline into a fresh prefix, and its `tradereq` runs from an
 * unrelated folder with nothing but that prefix and Node on PATH.
 */
import assert from 'node:assert/strict';
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
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
import { dirname, join, posix } from 'node:path';
import { starterPackagePaths } from '../../src/core/env/starter';
import { tgzEntries, zipEntries } from '../support/archives';
import { ensurePackages } from '../support/build';
import { anchors, IMAGE, type Link, links } from '../support/markdown-links';

const ROOT = join(__dirname, '..', '..');

interface Manifest {
  name: string;
  version: string;
  private?: boolean;
  files?: string[];
  main?: string;
  bin?: Record<string, string>;
  exports?: unknown;
  engines?: Record<string, string>;
  repository?: { type: string; url: string };
  keywords?: string[];
  dependencies?: Record<string, string>;
}

const manifestOf = (bytes: Buffer | undefined): Manifest => JSON.parse(String(bytes)) as Manifest;

/** The files an `exports` map names (its targets, under every condition), as written. */
function exportTargets(exports: unknown): string[] {
  if (typeof exports === 'string') return [exports];
  if (exports === null || typeof exports !== 'object') return [];
  return Object.values(exports).flatMap(exportTargets);
}
/** What `tradereq init` copies (media/starter/, a deployment's own files in media/starter/<id>/), as both packages carry it. */
const STARTER = starterPackagePaths();

describe('the npm tarball of the command line', function () {
  this.timeout(120_000);
  let tmp: string;
  let tarball: string;
  let vsixFile: string;
  let build: string;
  const root = manifestOf(readFileSync(join(ROOT, 'package.json')));

  before(() => {
    tmp = mkdtempSync(join(tmpdir(), 'tradereq-tarball-'));
    ({ tarball, vsix: vsixFile, build } = ensurePackages());
  });
  after(() => rmSync(tmp, { recursive: true, force: true }));

  it('holds the built CLI (entry and command bundles), the starter of init, the README and the licence, and nothing else (no sources, tests, maps or .vsix)', () => {
    // The entry and one bundle per command (dist/cli/), loaded when that command runs.
    const commands = readdirSync(join(build, 'cli')).filter((f) => f.endsWith('.js'));
    assert.ok(commands.includes('send.js') && commands.includes('test.js'), String(commands));
    assert.deepEqual(
      [...tgzEntries(tarball).keys()].sort(),
      [
        'package/LICENSE',
        'package/README.md',
        'package/dist/cli.js',
        ...commands.map((f) => `package/dist/cli/${f}`),
        ...STARTER.map((f) => `package/${f}`),
        'package/package.json',
      ].sort(),
    );
  });

  it('is publishable: not private, with files, bin, engines, repository and keywords, and no runtime dependency', () => {
    const m = manifestOf(tgzEntries(tarball).get('package/package.json'));
    assert.equal(m.name, 'tradereq');
    assert.equal(m.private, undefined);
    assert.deepEqual(m.files, ['dist/cli.js', 'dist/cli/*.js', 'media/starter/']);
    assert.deepEqual(m.bin, { tradereq: 'dist/cli.js' });
    assert.equal(m.engines?.['node'], '>=20');
    assert.match(m.repository?.url ?? '', /^git\+https:\/\//);
    assert.ok(m.keywords?.includes('cli') && m.keywords.includes('testing'), String(m.keywords));
    assert.deepEqual(m.dependencies ?? {}, {}, 'the CLI bundle is self-contained: nothing to install with it');
  });

  it('names only files it holds: bin and exports lead into the tarball, and there is no main (a command, not a library; dist/extension.js is the .vsix’s), nor anything else only VS Code reads', () => {
    const tgz = tgzEntries(tarball);
    const m = manifestOf(tgz.get('package/package.json'));
    const named = [
      ...(m.main === undefined ? [] : [m.main]),
      ...Object.values(m.bin ?? {}),
      ...exportTargets(m.exports),
    ];
    assert.ok(named.includes('dist/cli.js') && named.includes('./package.json'), String(named));
    for (const f of named) assert.ok(tgz.has(`package/${posix.normalize(f)}`), `${f} is in the tarball`);
    assert.equal(m.main, undefined, 'requiring the package runs nothing');
    const vscodeOnly = ['l10n', 'icon', 'contributes', 'activationEvents', 'capabilities', 'galleryBanner'];
    assert.deepEqual(
      vscodeOnly.filter((field) => field in m),
      [],
      'fields that name files only the .vsix holds',
    );
    assert.equal(root.main, './dist/extension.js', 'the extension’s entry, as VS Code reads it from the .vsix');
  });

  it('the .vsix and the tarball come from one build and carry one version', () => {
    const vsix = zipEntries(vsixFile);
    const tgz = tgzEntries(tarball);
    assert.equal(manifestOf(vsix.get('extension/package.json')).version, root.version);
    assert.equal(manifestOf(tgz.get('package/package.json')).version, root.version);
    assert.ok(tgz.get('package/dist/cli.js')!.equals(readFileSync(join(build, 'cli.js'))));
    assert.ok(vsix.get('extension/dist/extension.js')!.equals(readFileSync(join(build, 'extension.js'))));
    assert.ok(!tgz.get('package/dist/cli.js')!.toString().includes('sourceMappingURL'), 'a production build');
    assert.ok(![...vsix.keys()].some((f) => f.includes('cli.js')), 'the extension does not carry the CLI');
    for (const f of STARTER) assert.ok(vsix.get(`extension/${f}`)?.equals(tgz.get(`package/${f}`)!), `both carry ${f}`);
  });

  it('the .vsix carries the marketplace icon, a PNG of at least 128×128 made from media/icon.svg, and not its source', () => {
    const vsix = zipEntries(vsixFile);
    const manifest = JSON.parse(String(vsix.get('extension/package.json'))) as { icon?: string; categories?: string[] };
    assert.equal(manifest.icon, 'media/icon.png');
    assert.ok(manifest.categories?.includes('Testing'), 'listed under Testing');
    const png = vsix.get('extension/media/icon.png');
    assert.ok(png, 'the icon is in the package');
    assert.ok(png.subarray(1, 4).equals(Buffer.from('PNG')), 'a PNG');
    // IHDR: width and height, big-endian, at bytes 16 and 20.
    assert.ok(
      png.readUInt32BE(16) >= 128 && png.readUInt32BE(20) >= 128,
      `${png.readUInt32BE(16)}×${png.readUInt32BE(20)}`,
    );
    assert.ok(!vsix.has('extension/media/icon.svg'), 'the source stays out');
  });

  it("the .vsix carries the translations (package.nls*.json, l10n/*.json, not l10n/README.md); the tarball's manifest reads in English", () => {
    const vsix = zipEntries(vsixFile);
    const bundles = readdirSync(join(ROOT, 'l10n')).filter((f) => f.endsWith('.json'));
    const nls = readdirSync(ROOT).filter((f) => /^package\.nls(\.[\w-]+)?\.json$/.test(f));
    assert.ok(bundles.includes('bundle.l10n.zh-cn.json') && nls.includes('package.nls.zh-cn.json'), String(nls));
    for (const f of [...bundles.map((b) => `l10n/${b}`), ...nls])
      assert.ok(vsix.get(`extension/${f}`)?.equals(readFileSync(join(ROOT, f))), `the .vsix carries ${f}`);
    assert.ok(!vsix.has('extension/l10n/README.md'), "the translators' notes stay out");
    const npm = String(tgzEntries(tarball).get('package/package.json'));
    assert.ok(!/"%[^"%]+%"/.test(npm), 'npm shows no %key%');
    assert.equal(
      (JSON.parse(npm) as { description: string }).description,
      (JSON.parse(readFileSync(join(ROOT, 'package.nls.json'), 'utf8')) as { description: string }).description,
    );
  });

  it('installs offline into a fresh prefix; require() finds its package.json and is told it exports nothing else; tradereq --help, errors 700002, test --sandbox on examples/, and init then test --sandbox on the starter run from an unrelated folder', () => {
    const prefix = join(tmp, 'prefix');
    const install = spawnSync(
      'npm',
      ['install', '--global', '--prefix', prefix, '--offline', '--no-audit', '--no-fund', '--ignore-scripts', tarball],
      { cwd: tmp, encoding: 'utf8', env: { ...process.env, npm_config_cache: join(tmp, 'npm-cache') } },
    );
    assert.equal(install.status, 0, `${install.stdout}\n${install.stderr}`);
    const installed = join(prefix, 'lib', 'node_modules', 'tradereq');
    assert.deepEqual(readdirSync(installed).sort(), ['LICENSE', 'README.md', 'dist', 'media', 'package.json']);
    assert.ok(!existsSync(join(installed, 'node_modules')), 'no dependency was installed');

    const elsewhere = join(tmp, 'elsewhere');
    mkdirSync(elsewhere);
    // Nothing of the repository reachable: only the prefix's bin and Node on PATH, a fresh HOME and state.
    const env = {
      PATH: [join(prefix, 'bin'), dirname(process.execPath)].join(':'),
      HOME: join(tmp, 'home'),
      TRADEREQ_STATE_DIR: join(tmp, 'state'),
    };
    const tradereq = (...args: string[]): SpawnSyncReturns<string> =>
      spawnSync('tradereq', args, { cwd: elsewhere, env, encoding: 'utf8', timeout: 60_000 });
    const show = (r: SpawnSyncReturns<string>): string => `exit ${r.status}\n${r.stdout}\n${r.stderr}`;

    const help = tradereq('--help');
    assert.equal(help.status, 0, show(help));
    assert.match(help.stdout, /^Usage: tradereq COMMAND/);
    assert.match(help.stdout, /\n {2}test \[PATH\]/);
    // A program that requires the package reads its manifest, and is told there is nothing else to load.
    const node = (code: string): SpawnSyncReturns<string> =>
      spawnSync(process.execPath, ['-e', code], {
        cwd: elsewhere,
        env: { ...env, NODE_PATH: join(prefix, 'lib', 'node_modules') },
        encoding: 'utf8',
        timeout: 60_000,
      });
    const version = node("console.log(require('tradereq/package.json').version)");
    assert.equal(version.stdout.trim(), root.version, show(version));
    const library = node("try { require('tradereq') } catch (e) { console.log(e.code) }");
    assert.equal(library.stdout.trim(), 'ERR_PACKAGE_PATH_NOT_EXPORTED', show(library));
    const errors = tradereq('errors', '700002');
    assert.equal(errors.status, 0, show(errors));
    assert.match(errors.stdout, /700002/);
    const test = tradereq('test', '--sandbox', join(ROOT, 'examples'));
    assert.equal(test.status, 0, show(test));
    assert.match(test.stdout, /\n15 passed, 0 failed, 0 unknown, 0 refused in /);
    // The starter as the installed bundle finds it (dist/cli/init.js → media/starter/), passing as written.
    const init = tradereq('init', 'starter');
    assert.equal(init.status, 0, show(init));
    const starter = tradereq('test', '--sandbox', 'starter');
    assert.equal(starter.status, 0, show(starter));
    assert.match(starter.stdout, /\n7 passed, 0 failed, 0 unknown, 0 refused \(1 skipped\) in /);
  });
});

/** A manifest as the .vsix carries it, with what the marketplaces read. */
interface ExtensionManifest {
  name: string;
  publisher: string;
  version: string;
  displayName: string;
  description: string;
  license?: string;
  main: string;
  icon: string;
  engines: Record<string, string>;
  categories: string[];
  keywords: string[];
  homepage: string;
  repository: { url: string };
  bugs: { url: string };
  galleryBanner: { color: string; theme: string };
  markdown?: string;
  qna?: string | false;
  contributes: {
    languages: { configuration?: string }[];
    grammars: { path: string }[];
    snippets?: { path: string }[];
    jsonValidation: { url: string }[];
    walkthroughs: { steps: { media: { svg: string } }[] }[];
  };
}

/** The manifest's own files: those it names, relative to the package's root. */
function namedFiles(m: ExtensionManifest): string[] {
  const c = m.contributes;
  return [
    m.main,
    m.icon,
    ...c.languages.flatMap((l) => (l.configuration ? [l.configuration] : [])),
    ...c.grammars.map((g) => g.path),
    ...(c.snippets ?? []).map((s) => s.path),
    ...c.jsonValidation.map((j) => j.url),
    ...c.walkthroughs.flatMap((w) => w.steps.map((s) => s.media.svg)),
  ].map((f) => f.replace(/^\.\//, ''));
}

/** What a user of the extension needs: its bundles, its static contributions, its texts and translations. */
const NEEDED = [
  /^package\.json$/,
  /^(README|CHANGELOG)\.md$/,
  /^LICENSE$/,
  /^dist\/[\w-]+\.js$/,
  /^dist\/webview\/panel\.(js|css)$/,
  /^media\/[\w.-]+\.json$/,
  /^media\/icon\.png$/,
  /^media\/starter\/([\w-]+\/)?[\w.-]+$/,
  /^media\/walkthrough\/[\w-]+\.svg$/,
  /^package\.nls(\.[\w-]+)?\.json$/,
  /^l10n\/bundle\.l10n(\.[\w-]+)?\.json$/,
  // What its README links to and shows.
  /^docs\/[\w-]+\.md$/,
  /^docs\/images\/[\w-]+\.png$/,
  /^ARCHITECTURE\.md$/,
];

/**
 * The rules the Open VSX registry applies to a published extension (its server's ExtensionValidator,
 * restated): what ovsx itself checks offline is only publisher, name, version and the licence.
 */
function openVsxProblems(m: ExtensionManifest, text: (v: string) => string): string[] {
  const problems: string[] = [];
  const check = (ok: boolean, what: string): void => void (ok || problems.push(what));
  // Control, format, unassigned, private-use and line or paragraph separator characters.
  const badCharacter = /[\p{Cc}\p{Cf}\p{Cn}\p{Co}\p{Zl}\p{Zp}]/u;
  const url = (value: string): boolean => {
    try {
      const u = new URL(value.replace(/^git\+/, ''));
      return !/^https?:$/.test(u.protocol) || u.hostname !== '';
    } catch {
      return false;
    }
  };
  for (const [field, value] of [
    ['publisher (namespace)', m.publisher],
    ['name', m.name],
  ] as const)
    check(/^[\w\-+$~]+$/.test(value) && value.length <= 255, `${field} "${value}"`);
  check(/^\d+\.\d+\.\d+(-[\w.-]+)?(\+[\w.-]+)?$/.test(m.version), `version ${m.version} is semantic`);
  check(!['latest', 'pre-release', 'reviews'].includes(m.version), 'version is not a reserved word');
  check(text(m.displayName).length <= 255 && !badCharacter.test(text(m.displayName)), 'displayName');
  check(
    text(m.description).length <= 2048 && !badCharacter.test(text(m.description).replace(/\u200d/g, '')),
    'description',
  );
  for (const [field, values] of [
    ['categories', m.categories],
    ['keywords', m.keywords],
    ['license', [m.license ?? '']],
  ] as const)
    for (const v of values) check(v.length <= 255 && !badCharacter.test(v), `${field}: "${v}"`);
  for (const [field, value] of [
    ['homepage', m.homepage],
    ['repository', m.repository.url],
    ['bugs', m.bugs.url],
  ] as const)
    check(value.length <= 255 && url(value), `${field} ${value} is an absolute URL`);
  check(['dark', 'light'].includes(m.galleryBanner.theme), 'galleryBanner.theme is dark or light');
  check(m.galleryBanner.color.length <= 16, 'galleryBanner.color');
  check(m.markdown === undefined || ['github', 'standard'].includes(m.markdown), 'markdown');
  check(m.qna === undefined || m.qna === false || m.qna === 'marketplace' || url(m.qna), 'qna');
  check(typeof m.engines['vscode'] === 'string', 'engines.vscode');
  return problems;
}

/**
 * Why `link` of the page `page` of the .vsix (`entries`, named `extension/…`) leads nowhere a reader of
 * the installed extension or of its marketplace page can follow, or undefined: a relative link names
 * a file of the package (an image an image file; an anchor a heading of a Markdown page of it), any
 * other an https URL.
 */
function deadInVsix(entries: ReadonlyMap<string, Buffer>, page: string, link: Link): string | undefined {
  const { target, image } = link;
  if (/^[a-z][a-z0-9+.-]*:/i.test(target)) {
    const url = URL.canParse(target) ? new URL(target) : undefined;
    return url?.protocol === 'https:' && url.hostname !== '' ? undefined : 'not an https URL';
  }
  if (target === '' || target.startsWith('/')) return 'not a path inside the package';
  const hash = target.indexOf('#');
  const path = hash < 0 ? target : target.slice(0, hash);
  const file = path === '' ? page : posix.normalize(posix.join(posix.dirname(page), decodeURI(path)));
  if (file.startsWith('../')) return 'outside the package';
  const bytes = entries.get(`extension/${file}`);
  const folder = [...entries.keys()].some((f) => f.startsWith(`extension/${file}/`));
  if (bytes === undefined) return folder && !image && hash < 0 ? undefined : 'not in the .vsix';
  if (image && !IMAGE.test(file)) return 'not an image file';
  if (hash < 0) return undefined;
  if (!file.endsWith('.md')) return 'an anchor into a file that is not Markdown';
  const anchor = decodeURIComponent(target.slice(hash + 1));
  return anchors(String(bytes)).has(anchor) ? undefined : `no heading "#${anchor}"`;
}

describe('the .vsix of the extension', function () {
  this.timeout(120_000);
  let vsixFile: string;
  let entries: Map<string, Buffer>;
  let manifest: ExtensionManifest;
  let build: string;

  before(() => {
    ({ vsix: vsixFile, build } = ensurePackages());
    entries = zipEntries(vsixFile);
    manifest = JSON.parse(String(entries.get('extension/package.json'))) as ExtensionManifest;
  });

  it('holds what vsce ls lists, and that is what a user needs: every bundle of the build but the CLI, every file the manifest names, the starter, the walkthrough’s images, the pages and image its README links to; no source, map, test, the icon’s SVG or the panel’s CSS source', () => {
    // Run where scripts/package.js ran vsce package: its staging folder.
    const vsce = join(ROOT, 'node_modules', '@vscode', 'vsce', 'vsce');
    const ls = spawnSync(process.execPath, [vsce, 'ls', '--no-dependencies'], {
      cwd: join(ROOT, 'out', 'package', 'vsix'),
      encoding: 'utf8',
    });
    assert.equal(ls.status, 0, ls.stderr);
    const listed = ls.stdout.split('\n').filter((l) => l !== '');
    // vsce gives the README, CHANGELOG and licence names of its own in the .vsix.
    const vsceName: Record<string, string> = {
      'README.md': 'readme.md',
      'CHANGELOG.md': 'changelog.md',
      LICENSE: 'LICENSE.txt',
    };
    const packed = [...entries.keys()]
      .filter((f) => f.startsWith('extension/'))
      .map((f) => f.slice('extension/'.length));
    assert.deepEqual(packed.sort(), listed.map((f) => vsceName[f] ?? f).sort());
    for (const f of listed)
      assert.ok(
        NEEDED.some((r) => r.test(f)),
        `${f} is not something a user needs`,
      );
    const bundles = readdirSync(build)
      .filter((f) => f.endsWith('.js') && f !== 'cli.js')
      .map((f) => `dist/${f}`);
    const required = [
      ...namedFiles(manifest),
      ...bundles,
      'dist/webview/panel.js',
      'dist/webview/panel.css',
      ...STARTER,
    ];
    for (const f of required) assert.ok(listed.includes(f), `${f} is in the package`);
    for (const f of listed)
      assert.doesNotMatch(f, /\.(ts|map)$|^(src|test|scripts|node_modules)\/|^media\/(icon\.svg|panel\.css)$/);
  });

  it('its README shows only what the package holds: every link and image of the readme.md inside the .vsix leads to a file of the .vsix (an anchor to a heading there) or to an https URL', () => {
    const readme = String(entries.get('extension/readme.md'));
    const found = links(readme);
    // The README's screenshot and its links to docs/ (test/unit/repo/links.test.ts holds them to the repository's files).
    assert.ok(found.length >= 15 && found.some((l) => l.image), `only ${found.length} links in readme.md`);
    const dead = found.flatMap((link) => {
      const why = deadInVsix(entries, 'readme.md', link);
      return why === undefined ? [] : [`readme.md:${link.line}: ${link.target} (${why})`];
    });
    assert.deepEqual(dead, []);
  });

  it('carries the walkthrough: its steps in the manifest, each step’s image as in media/walkthrough/', () => {
    const steps = manifest.contributes.walkthroughs[0]?.steps ?? [];
    assert.equal(steps.length, 5);
    for (const { media } of steps)
      assert.ok(entries.get(`extension/${media.svg}`)?.equals(readFileSync(join(ROOT, media.svg))), media.svg);
  });

  it('passes Open VSX’s checks that run offline: ovsx reads the manifest from the .vsix (publisher, name, version present), finds a licence, the size is under its limit; the registry’s rules on names, version, texts, links and banner hold', async () => {
    // ovsx's own code, as `ovsx publish tradereq.vsix` runs it before uploading.
    // Its modules that run before the upload, not the index (which loads the login's keychain too).
    const { validateManifest } = await import('ovsx/lib/util.js');
    const { isLicenseOk } = await import('ovsx/lib/check-license.js');
    const { readVSIXPackage } = await import('ovsx/lib/zip.js');
    const { Registry } = await import('ovsx/lib/registry.js');
    const read = await readVSIXPackage(vsixFile);
    assert.doesNotThrow(() => validateManifest(read));
    assert.deepEqual([read.publisher, read.name, read.version], [manifest.publisher, manifest.name, manifest.version]);
    // ovsx asks open-vsx.org's licence of the folder it packages: the .vsix's files, unpacked.
    const unpacked = mkdtempSync(join(tmpdir(), 'tradereq-vsix-'));
    try {
      for (const [name, bytes] of entries)
        if (name.startsWith('extension/') && !name.includes('/', 'extension/'.length))
          writeFileSync(join(unpacked, name.slice('extension/'.length)), bytes);
      assert.ok(new Registry().requiresLicense, 'open-vsx.org requires a licence');
      assert.equal(await isLicenseOk(unpacked, read), true);
      assert.equal(manifest.license, 'MIT');
      assert.ok(existsSync(join(unpacked, 'LICENSE.txt')), 'the licence text is in the package');
    } finally {
      rmSync(unpacked, { recursive: true, force: true });
    }
    assert.ok(statSync(vsixFile).size < new Registry().maxPublishSize);
    const nls = entries.get('extension/package.nls.json');
    const strings = nls ? (JSON.parse(String(nls)) as Record<string, string>) : {};
    const text = (v: string): string => strings[/^%(.+)%$/.exec(v)?.[1] ?? ''] ?? v;
    assert.deepEqual(openVsxProblems(manifest, text), []);
    assert.doesNotMatch(
      String(entries.get('extension.vsixmanifest')),
      /TargetPlatform=/,
      'one package for every platform',
    );
  });
});
