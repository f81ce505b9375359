/**
 * `npm run check:host -- [--json] <url>`: after a deploy, probes the live site and prints what its
 * host keeps and loses (deploy/host-check), as a table or, with `--json`, as one JSON document.
 * Exit codes: 0 every promised protection is there, 1 some are missing, 2 the site could not be
 * checked (bad arguments, unreachable, not an HTML page, a redirect loop at the address given), with
 * a one-line reason on stderr (and with `--json` a JSON `{ "version": 1, "error": … }` on stdout).
 */
import { checkHost } from '../../deploy/host-check/checks';
import { escapeForTerminal } from '../../deploy/host-check/escape';
import { HostCheckError } from '../../deploy/host-check/http';
import { exitCodeOf, formatJson, formatJsonError, formatReport } from '../../deploy/host-check/report';

const USAGE = 'usage: npm run check:host -- [--json] <url of the deployed site, e.g. https://www.example.com/>';

/** The site's URL from the arguments (`--json` aside). */
function siteUrl(argv: string[]): string {
  const rest = argv.filter((argument) => argument !== '--json');
  const unknown = rest.find((argument) => argument.startsWith('--'));
  if (unknown) throw new HostCheckError(`unknown option ${unknown} (${USAGE.replace('usage: ', '')})`);
  if (rest.length !== 1 || !rest[0]) throw new HostCheckError(USAGE);
  let url: URL;
  try {
    url = new URL(rest[0]);
  } catch {
    throw new HostCheckError(`not a URL: ${rest[0]} (${USAGE.replace('usage: ', '')})`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new HostCheckError(`not an http(s) URL: ${rest[0]}`);
  return url.href;
}

async function main(json: boolean): Promise<number> {
  const report = await checkHost(siteUrl(process.argv.slice(2)));
  console.log(json ? formatJson(report) : formatReport(report));
  return exitCodeOf(report);
}

/** The one line of a failure: a HostCheckError says what the site did; anything else is a bug of ours. */
function reasonOf(error: unknown): string {
  if (error instanceof HostCheckError) return error.message;
  const message = error instanceof Error ? error.message : String(error);
  return `unexpected error: ${message.split('\n')[0] ?? ''}`;
}

const json = process.argv.includes('--json');
main(json).then(
  (code) => process.exit(code),
  (error: unknown) => {
    const reason = reasonOf(error);
    if (json) console.log(formatJsonError(reason));
    console.error(`check:host: ${escapeForTerminal(reason)}`);
    if (!(error instanceof HostCheckError)) console.error(error);
    process.exit(2);
  },
);
