// Where a WEBHOOK or CHAT delivery may connect. Any key holder aims those
// channels, and a channel test reports what answered: without a rule, they are a
// port scanner of the service's own network (loopback, the cloud metadata address
// 169.254.169.254, the private ranges). So only public unicast addresses are
// reached unless the operator opens more (alertDelivery.allowPrivateNetworks, or
// alertDelivery.allowedNetworks by CIDR). The rule is applied to the address the
// socket connects to, after DNS: a name that resolves inside is refused as well.
// The operator's own transports (smtp.url, sms.baseUrl) are not restricted.
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import { buildConnector } from 'undici';

export interface NetworkRule {
  allowPrivateNetworks: boolean;
  allowedNetworks: readonly string[];
}

/** The error a refused connection fails with; its message goes to the delivery log as is. */
export class RefusedAddressError extends Error {
  readonly code = 'ERR_CHECKWALL_REFUSED_ADDRESS';
}

const RANGE_WORDS: Record<string, string> = {
  loopback: 'a loopback address',
  linkLocal: 'a link-local address',
  private: 'a private address',
  uniqueLocal: 'a unique-local address',
  unspecified: 'an unspecified address',
  multicast: 'a multicast address',
  broadcast: 'a broadcast address',
  carrierGradeNat: 'a carrier-grade NAT address',
  reserved: 'a reserved address',
};

/** Why `address` may not be reached under `rule`, or null when it may. */
export function createAddressRule(rule: NetworkRule): (address: string) => string | null {
  const opened = rule.allowedNetworks.map((cidr) => ipaddr.parseCIDR(cidr));
  return (address) => {
    if (rule.allowPrivateNetworks) return null;
    if (!ipaddr.isValid(address)) return `refused: ${address} is not an IP address`;
    // An IPv4-mapped IPv6 address (::ffff:127.0.0.1) is judged as the IPv4 one it is.
    const ip = ipaddr.process(address);
    const range = ip.range();
    if (range === 'unicast') return null;
    if (ipaddr.subnetMatch(ip, { opened }, 'closed') === 'opened') return null;
    const what = RANGE_WORDS[range] ?? `a non-public (${range}) address`;
    return `refused: ${ip.toString()} is ${what}; set alertDelivery.allowPrivateNetworks or alertDelivery.allowedNetworks to allow it`;
  };
}

/** A DNS lookup that keeps only the addresses the rule allows, and fails when none is left. */
function guardedLookup(why: (address: string) => string | null): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, found: LookupAddress[]) => {
      if (error) return callback(error, '', 0);
      const allowed = found.filter((a) => why(a.address) === null);
      if (allowed.length === 0) {
        const first = found[0];
        const reason = first ? why(first.address)! : `refused: ${hostname} has no address`;
        return callback(new RefusedAddressError(`${reason} (${hostname})`), '', 0);
      }
      if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, allowed);
      return callback(null, allowed[0]!.address, allowed[0]!.family);
    });
  };
}

/**
 * An undici connector that refuses disallowed addresses before any packet is sent:
 * an IP literal is judged at once (the socket would not look it up), a name by the
 * addresses it resolves to, and the connected socket's peer once more.
 */
export function guardedConnector(rule: NetworkRule, timeoutMs: number): buildConnector.connector {
  const why = createAddressRule(rule);
  const connect = buildConnector({ timeout: timeoutMs, lookup: guardedLookup(why) });
  return (opts, callback) => {
    const host = opts.hostname.replace(/^\[(.*)\]$/, '$1');
    const literal = isIP(host) ? why(host) : null;
    if (literal) return callback(new RefusedAddressError(literal), null);
    return connect(opts, (error, socket) => {
      const peer = socket?.remoteAddress;
      const late = !error && peer ? why(peer) : null;
      if (!late) return error ? callback(error, null) : callback(null, socket!);
      socket!.destroy();
      return callback(new RefusedAddressError(late), null);
    });
  };
}
