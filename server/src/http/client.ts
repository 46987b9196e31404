/**
 * Who is on the other end of a request: the socket's address, or, when that peer is one of the
 * configured proxies (PV_TRUSTED_PROXIES), the last address in X-Forwarded-For that is not itself a
 * trusted proxy. Anyone else's X-Forwarded-For is ignored: it is only a claim.
 */
import { BlockList, isIP } from 'node:net';
import type { IncomingMessage } from 'node:http';
import type { Context } from 'hono';
import type { AppEnv } from './context';

/** An IPv4 address reached over an IPv6 socket (::ffff:10.0.0.1) is the IPv4 address. */
function plainAddress(address: string): string {
  const trimmed = address.trim();
  return /^::ffff:\d+\.\d+\.\d+\.\d+$/i.test(trimmed) ? trimmed.slice(7) : trimmed;
}

/** Checks PV_PUBLIC_URL: an http(s) origin with an optional path, kept without a trailing slash. */
export function publicUrlOf(value: string | undefined | null): string | undefined {
  const text = value?.trim();
  if (!text) return undefined;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new Error(`PV_PUBLIC_URL must be an absolute http(s) URL, got "${text}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new Error(`PV_PUBLIC_URL must be an absolute http(s) URL, got "${text}"`);
  return `${url.origin}${url.pathname}`.replace(/\/+$/, '');
}

/** Parses PV_TRUSTED_PROXIES: a comma list of IPs and CIDRs. Throws on an entry that is neither. */
export function parseTrustedProxies(value: string | undefined | null): string[] {
  const entries = (value ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  proxyList(entries);
  return entries;
}

const lists = new WeakMap<string[], BlockList>();

function proxyList(entries: string[]): BlockList {
  const cached = lists.get(entries);
  if (cached) return cached;
  const list = new BlockList();
  for (const entry of entries) {
    const [address = '', prefix] = entry.split('/');
    const family = isIP(plainAddress(address));
    if (!family) throw new Error(`PV_TRUSTED_PROXIES: "${entry}" is not an IP address or CIDR`);
    const type = family === 4 ? 'ipv4' : 'ipv6';
    if (prefix === undefined) list.addAddress(plainAddress(address), type);
    else {
      const bits = Number(prefix);
      if (!Number.isInteger(bits) || bits < 0 || bits > (family === 4 ? 32 : 128))
        throw new Error(`PV_TRUSTED_PROXIES: "${entry}" has an invalid prefix length`);
      list.addSubnet(plainAddress(address), bits, type);
    }
  }
  lists.set(entries, list);
  return list;
}

function trusted(list: BlockList, address: string): boolean {
  const family = isIP(address);
  return family !== 0 && list.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/** The socket's peer address, when the request came through Node's HTTP server. */
export function socketAddress(c: Context<AppEnv>): string | null {
  const env = c.env as { incoming?: IncomingMessage } | undefined;
  const remote = env?.incoming?.socket?.remoteAddress;
  return remote ? plainAddress(remote) : null;
}

/** The client's address as far as it can be believed (see the file comment). */
export function clientAddress(c: Context<AppEnv>): string | null {
  const peer = socketAddress(c);
  const entries = c.get('deps').config.trustedProxies;
  if (!peer || entries.length === 0) return peer;
  const list = proxyList(entries);
  if (!trusted(list, peer)) return peer;
  const hops = (c.req.header('x-forwarded-for') ?? '')
    .split(',')
    .map((hop) => plainAddress(hop))
    .filter(Boolean);
  // Walk back from the nearest hop: the first one that is not our own proxy is the client.
  for (let i = hops.length - 1; i >= 0; i -= 1) {
    const hop = hops[i]!;
    if (!isIP(hop)) return peer;
    if (!trusted(list, hop)) return hop;
  }
  return hops[0] ?? peer;
}
