/**
 * The HTML report of a test run (`tradereq test --reporter html`): one file, readable offline. No
 * script and no external resource: the style is inline, and a Content-Security-Policy meta forbids
 * scripts, and loads from anywhere but the page itself. Every text is hostile (titles, file names,
 * answers) and escaped; the results hold no secret and no full API key (run.ts masks listen keys
 * and credentials the answers gave, as for the other reports).
 */
import { caseTitle } from './cases';
import { failureLines, summaryLine, type CaseResult, type FileReport, type RunReport } from './verdict';

const CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src 'none'; script-src 'none'; form-action 'none'";

const STYLE = `body{font:14px/1.4 system-ui,sans-serif;margin:2em;color:#222}
h1{font-size:1.4em}h2{font-size:1.1em;margin-top:2em}
table{border-collapse:collapse;width:100%}th,td{border:1px solid #ccc;padding:4px 8px;text-align:left;vertical-align:top}
.passed{color:#176f2c}.failed,.unknown,.refused{color:#b00020}.skipped{color:#666}
pre{white-space:pre-wrap;word-break:break-word;margin:0;font-size:12px}`;

const MARKUP: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/**
 * Text as HTML: the five characters that could start markup or end an attribute escaped; control
 * characters, which HTML does not allow in a page, shown as \uXXXX (as the terminal shows them), and
 * a lone surrogate as U+FFFD.
 */
function esc(text: string): string {
  return text
    .replace(
      // eslint-disable-next-line no-control-regex
      /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/g,
      (c) => '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0'),
    )
    .replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd')
    .replace(/[&<>"']/g, (c) => MARKUP[c]!);
}

export function htmlReport(run: RunReport): string {
  return [
    '<!DOCTYPE html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${esc(CSP)}">`,
    '<title>tradereq test</title>',
    `<style>${STYLE}</style>`,
    '</head>',
    '<body>',
    '<h1>tradereq test</h1>',
    `<p>${esc(summaryLine(run))}; started ${esc(run.startedAt)}</p>`,
    ...run.files.flatMap(fileSection),
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

function fileSection(f: FileReport): string[] {
  return [
    `<h2>${esc(f.path)} (${esc(f.environment)})</h2>`,
    '<table>',
    '<thead><tr><th>Request</th><th>Row</th><th>Verdict</th><th>Time</th><th>Details</th></tr></thead>',
    '<tbody>',
    ...f.cases.map(caseRow),
    '</tbody>',
    '</table>',
  ];
}

/** A case: its title, data row, verdict, time, and for one that did not pass what came back, the request and the answer. */
function caseRow(r: CaseResult): string {
  const row = r.case.row ? `${r.case.row.number}: ${r.case.row.text}` : '';
  const took = r.verdict === 'skipped' ? '' : `${r.durationMs} ms${r.pacedMs ? ` (+${r.pacedMs} ms paced)` : ''}`;
  const details =
    r.verdict === 'passed'
      ? ''
      : [r.verdict === 'skipped' ? r.summary : failureLines(r).join('\n'), r.request ?? '', r.response ?? '']
          .filter((part) => part !== '')
          .map((part) => `<pre>${esc(part)}</pre>`)
          .join('');
  const cells = [caseTitle(r.case), row].map((c) => `<td>${esc(c)}</td>`).join('');
  return `<tr>${cells}<td class="${r.verdict}">${r.verdict}</td><td>${esc(took)}</td><td>${details}</td></tr>`;
}
