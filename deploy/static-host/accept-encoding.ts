/**
 * Picks the response encoding from `Accept-Encoding` by its quality values (RFC 9110 section
 * 12.5.3): a coding listed with `q=0` is refused, `*` stands for every coding not listed, and among
 * the acceptable ones the client's higher q wins, brotli before gzip on a tie. A substring test
 * (`/\bbr\b/`) would serve brotli to a client that says `br;q=0`.
 */

export type ContentEncoding = 'br' | 'gzip';

/** Our preference on equal quality: brotli is smaller. */
const SUPPORTED: readonly ContentEncoding[] = ['br', 'gzip'];

/** The q of each listed coding (lower case); a malformed q counts as 0, i.e. not acceptable. */
function qualities(header: string): Map<string, number> {
  const listed = new Map<string, number>();
  for (const entry of header.split(',')) {
    const [name = '', ...params] = entry.split(';').map((part) => part.trim());
    if (name === '') continue;
    let q = 1;
    for (const param of params) {
      const match = /^q\s*=\s*(.*)$/i.exec(param);
      if (match) q = /^(0(\.\d{0,3})?|1(\.0{0,3})?)$/.test(match[1] ?? '') ? Number(match[1]) : 0;
    }
    listed.set(name.toLowerCase(), q);
  }
  return listed;
}

/** The encoding to send, or null for the identity (no header, nothing acceptable, or all refused). */
export function chooseEncoding(acceptEncoding: string): ContentEncoding | null {
  const listed = qualities(acceptEncoding);
  const wildcard = listed.get('*') ?? 0;
  let best: ContentEncoding | null = null;
  let bestQ = 0;
  for (const encoding of SUPPORTED) {
    const q = listed.get(encoding) ?? wildcard;
    if (q > bestQ) {
      best = encoding;
      bestQ = q;
    }
  }
  return best;
}
