/**
 * "Is this host on the machine or the local network?", decided on addresses, not on text: a prefix
 * test such as `startsWith('172.')` plus a string comparison of the second part takes public hosts
 * like 172.2.0.1 or 172.200.0.1 for private ones.
 *
 * The host is parsed by the WHATWG URL parser first, the one the browser connects with, so every
 * spelling of an address (`0x7f.1`, `[::ffff:127.0.0.1]`, upper case) is judged as what it means.
 *
 * Not re-exported by lib/util/index.ts: only the lazily loaded actor socket needs it, and a barrel
 * export would put it into the SDK's first-load chunk.
 */

/** IPv4 ranges as [first octet, second octet low, second octet high]: 10/8, 127/8, 172.16/12, 192.168/16. */
const PRIVATE_V4: readonly (readonly [number, number, number])[] = [
  [10, 0, 255],
  [127, 0, 255],
  [172, 16, 31],
  [192, 168, 168],
];

function isPrivateV4(octets: readonly number[]): boolean {
  const [first, second] = octets;
  if (first === undefined || second === undefined) return false;
  return PRIVATE_V4.some(([a, low, high]) => first === a && second >= low && second <= high);
}

/** The four octets of a dotted IPv4 hostname as the URL parser serialises it, else null. */
function v4Octets(hostname: string): number[] | null {
  const parts = hostname.split('.');
  if (parts.length !== 4 || !parts.every((part) => /^\d{1,3}$/.test(part))) return null;
  const octets = parts.map(Number);
  return octets.every((octet) => octet <= 255) ? octets : null;
}

/** An IPv4-mapped IPv6 address as the URL parser serialises it (`::ffff:7f00:1`), as IPv4 octets. */
function mappedV4Octets(v6: string): number[] | null {
  const match = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(v6);
  if (!match) return null;
  const high = parseInt(match[1] as string, 16);
  const low = parseInt(match[2] as string, 16);
  return [high >> 8, high & 0xff, low >> 8, low & 0xff];
}

/**
 * True for `localhost`, loopback (127.0.0.0/8, ::1) and the private IPv4 ranges 10.0.0.0/8,
 * 172.16.0.0/12 and 192.168.0.0/16 (also as IPv4-mapped IPv6). `host` may carry a port, a scheme
 * and a path (`http://10.0.0.2:8080/x`); anything unparsable is not private.
 */
export function isPrivateNetworkHost(host: string): boolean {
  let hostname: string;
  try {
    hostname = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(host) ? host : `http://${host}`).hostname;
  } catch {
    return false;
  }
  if (hostname === 'localhost') return true;
  if (hostname.startsWith('[')) {
    const v6 = hostname.slice(1, -1);
    if (v6 === '::1') return true;
    const mapped = mappedV4Octets(v6);
    return mapped !== null && isPrivateV4(mapped);
  }
  const octets = v4Octets(hostname);
  return octets !== null && isPrivateV4(octets);
}
