/**
 * `npm run check:host -- <url>`: after a deploy, probes the live site and prints what its host keeps
 * and loses (deploy/host-check). Exit codes: 0 every promised protection is there, 1 some are
 * missing, 2 the site could not be checked (bad URL, unreachable, not an HTML page, a redirect loop),
 * with a one-line reason.
 */
import { checkHost } from '../../deploy/host-check/checks';
import { HostCheckError } from '../../deploy/host-check/http';
import { exitCodeOf, formatReport } from '../../deploy/host-check/report';

const USAGE = 'usage: npm run check:host -- <url of the deployed site, e.g. https://www.example.com/>';

function siteUrl(argument: string | undefined): string {
  if (!argument) throw new HostCheckError(USAGE);
  let url: URL;
  try {
    url = new URL(argument);
  } catch {
    throw new HostCheckError(`not a URL: ${argument} (${USAGE.replace('usage: ', '')})`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new HostCheckError(`not an http(s) URL: ${argument}`);
  return url.href;
}

async function main(): Promise<number> {
  const report = await checkHost(siteUrl(process.argv[2]));
  console.log(formatReport(report));
  return exitCodeOf(report);
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof HostCheckError) {
      console.error(`check:host: ${error.message}`);
      process.exit(2);
    }
    console.error(error);
    process.exit(2);
  },
);
