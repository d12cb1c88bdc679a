// Which addresses a redirect may not lead a public target to: a monitor that
// follows any Location is a way into the service's own network (loopback, the
// cloud metadata address 169.254.169.254, the private ranges).
import ipaddr from 'ipaddr.js';

const RANGE_WORDS: Record<string, string> = {
  loopback: 'loopback',
  linkLocal: 'link-local',
  private: 'private',
  uniqueLocal: 'unique-local',
  unspecified: 'unspecified',
  carrierGradeNat: 'carrier-grade NAT',
};

/** The range of a non-public address ("loopback", "link-local"…), or null for a public one. */
export function nonPublicRange(address: string): string | null {
  if (!ipaddr.isValid(address)) return null;
  // An IPv4-mapped IPv6 address (::ffff:127.0.0.1) is judged as the IPv4 one it is.
  const range = ipaddr.process(address).range();
  return RANGE_WORDS[range] ?? null;
}
