import { describe, expect, it } from 'vitest';
import { forbiddenAddressKind } from './ssrf.js';
import { CrawlScope, normalizeUrl, registrableDomain, seedPrefix } from './urls.js';

describe('normalizeUrl', () => {
  it.each([
    ['HTTP://Example.COM:80/a#frag', 'http://example.com/a'],
    ['https://example.com:443/', 'https://example.com/'],
    ['https://example.com', 'https://example.com/'],
    ['http://example.com/a/./b/../c?', 'http://example.com/a/c'],
    ['http://example.com/a/?b=2&a=1', 'http://example.com/a/?b=2&a=1'],
    ['http://user:pw@example.com/x', 'http://example.com/x'],
    ['http://example.com./x', 'http://example.com/x'],
    ['mailto:a@b.c', null],
    ['ftp://example.com/', null],
    ['not a url', null],
  ])('%s -> %s', (raw, expected) => expect(normalizeUrl(raw)).toBe(expected));

  it('resolves relative links against a base', () => expect(normalizeUrl('../x#y', 'http://h.com/a/b/c')).toBe('http://h.com/a/x'));
});

describe('scope rules', () => {
  it('registrable domain is the last two labels; IPs are their own', () => {
    expect(registrableDomain('a.b.docs.example.com')).toBe('example.com');
    expect(registrableDomain('127.0.0.1')).toBe('127.0.0.1');
    expect(registrableDomain('localhost')).toBe('localhost');
  });
  it('a prefix is the seed path as a directory', () => {
    expect(seedPrefix('/docs/guide')).toBe('/docs/guide/');
    expect(seedPrefix('/docs/guide/')).toBe('/docs/guide/');
    expect(seedPrefix('/docs/index.html')).toBe('/docs/');
    expect(seedPrefix('/')).toBe('/');
  });
  it('seeds are in scope even when the globs would exclude them', () => {
    const scope = new CrawlScope({ urls: ['https://e.com/'], scope: 'hostname', include: ['/docs/**'], exclude: [] });
    expect(scope.check('https://e.com/')).toBe('in');
    expect(scope.check('https://e.com/blog')).toBe('include');
    expect(scope.check('https://e.com/docs/x?y=1')).toBe('in');
    expect(scope.check('http://e.com:8080/docs/x')).toBe('in');
    expect(scope.check('https://sub.e.com/docs/x')).toBe('host');
  });
});

describe('SSRF address classes', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.31.255.1', 'private'],
    ['192.168.0.10', 'private'],
    ['169.254.169.254', 'link-local'],
    ['100.64.0.1', 'carrier-grade NAT'],
    ['0.0.0.0', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fd00::1', 'unique-local (private)'],
    ['fe80::1%eth0', 'link-local'],
    ['ff02::1', 'multicast'],
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:7f00:1', 'loopback'],
    ['[::ffff:169.254.169.254]', 'link-local'],
    ['8.8.8.8', null],
    ['172.32.0.1', null],
    ['2606:4700::1111', null],
    ['::ffff:8.8.8.8', null],
  ])('%s is %s', (address, kind) => expect(forbiddenAddressKind(address)).toBe(kind));
});
