import { isPrivateNetworkHost } from '@/lib/util/network';

describe('isPrivateNetworkHost: address ranges, not text', () => {
  it.each([
    'localhost',
    'localhost:3001',
    '127.0.0.1:3001',
    '127.8.9.10',
    '10.0.0.1',
    '10.255.255.255:80',
    '172.16.0.1',
    '172.31.255.255:443',
    '192.168.1.20:8080',
    '[::1]:3001',
    '[::ffff:127.0.0.1]:3001',
    '[::ffff:7f00:1]:3001',
    '[::ffff:10.1.2.3]',
    'http://10.0.0.2:8080/x',
    '0x7f.1',
  ])('%s is loopback or private', (host) => {
    expect(isPrivateNetworkHost(host)).toBe(true);
  });

  it.each([
    '172.2.0.1',
    '172.200.0.1',
    '172.15.255.255',
    '172.32.0.1',
    '192.169.0.1',
    '11.0.0.1',
    '8.8.8.8:443',
    'platform.example',
    '10.example.com',
    '127.0.0.1.nip.io',
    'localhost.example',
    '[::2]',
    '[::ffff:8.8.8.8]',
    '[2001:db8::1]',
    '',
    'http://[bad',
  ])('%s is public (or not an address)', (host) => {
    expect(isPrivateNetworkHost(host)).toBe(false);
  });
});
