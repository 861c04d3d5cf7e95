import ipaddr from 'ipaddr.js';
import { isIpLiteral, parseNetwork, refusedRange } from './outbound-address';

describe('refusedRange', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['0x7f000001', 'loopback'],
    ['2130706433', 'loopback'],
    ['017700000001', 'loopback'],
    ['127.1', 'loopback'],
    ['10.0.0.1', 'private'],
    ['172.16.5.4', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'linkLocal'],
    ['100.64.0.1', 'carrierGradeNat'],
    ['100.100.100.200', 'carrierGradeNat'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['255.255.255.255', 'broadcast'],
    ['224.0.0.1', 'multicast'],
    ['198.18.0.1', 'reserved'],
    ['192.0.0.192', 'reserved'],
    ['192.0.2.1', 'reserved'],
    ['240.0.0.1', 'reserved'],
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fe80::1', 'linkLocal'],
    ['fe80::1%eth0', 'linkLocal'],
    ['fc00::1', 'uniqueLocal'],
    ['fd00::1', 'uniqueLocal'],
    ['fd00:ec2::254', 'uniqueLocal'],
    ['ff02::1', 'multicast'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:169.254.169.254', 'linkLocal'],
    ['::ffff:0:7f00:1', 'loopback'],
    ['64:ff9b::7f00:1', 'loopback'],
    ['64:ff9b::a9fe:a9fe', 'linkLocal'],
    ['64:ff9b:1::1', 'rfc6052'],
    ['::7f00:1', 'ipv4Compatible'],
    ['2002:7f00:1::1', '6to4'],
    ['2001::1', 'teredo'],
    ['2001:2::1', 'benchmarking'],
    ['2001:db8::1', 'reserved'],
    ['idp.example.com', 'not an IP address'],
  ])('refuses %s (%s)', (address, range) => {
    expect(refusedRange(address, [])).toBe(range);
  });

  it.each(['8.8.8.8', '1.1.1.1', '93.184.216.34', '172.32.0.1', '100.128.0.1', '2606:4700:4700::1111', '2a00:1450:4001::200e', '::ffff:8.8.8.8', '64:ff9b::808:808'])(
    'allows the public address %s',
    (address) => {
      expect(refusedRange(address, [])).toBeNull();
    },
  );

  it('allows internal addresses inside a network the operator allowed, and only those', () => {
    const loopback4 = [ipaddr.parseCIDR('127.0.0.0/8')];
    expect(refusedRange('127.0.0.1', loopback4)).toBeNull();
    expect(refusedRange('::ffff:127.0.0.1', loopback4)).toBeNull();
    expect(refusedRange('::1', loopback4)).toBe('loopback');
    expect(refusedRange('10.0.0.1', loopback4)).toBe('private');
    const corporate = [ipaddr.parseCIDR('10.20.0.0/16'), ipaddr.parseCIDR('fd12:3456::/32')];
    expect(refusedRange('10.20.3.4', corporate)).toBeNull();
    expect(refusedRange('10.21.0.1', corporate)).toBe('private');
    expect(refusedRange('fd12:3456::5', corporate)).toBeNull();
    expect(refusedRange('fd12:3457::5', corporate)).toBe('uniqueLocal');
    expect(refusedRange('169.254.169.254', corporate)).toBe('linkLocal');
  });
});

describe('parseNetwork', () => {
  it('reads IPv4 and IPv6 CIDRs and nothing else', () => {
    expect(parseNetwork(' 10.0.0.0/8 ')?.[1]).toBe(8);
    expect(parseNetwork('fd00::/8')?.[0].kind()).toBe('ipv6');
    for (const bad of ['10.0.0.0', '10.0.0.0/33', 'fd00::/129', 'intranet/8', '']) expect(parseNetwork(bad)).toBeUndefined();
  });
});

describe('isIpLiteral', () => {
  it('tells addresses from names the way a socket does', () => {
    expect(isIpLiteral('127.0.0.1')).toBe(true);
    expect(isIpLiteral('[::1]')).toBe(true);
    expect(isIpLiteral('fd00::1')).toBe(true);
    expect(isIpLiteral('localhost')).toBe(false);
    expect(isIpLiteral('metadata.google.internal')).toBe(false);
  });
});
