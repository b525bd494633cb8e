/**
 * Domain rules of tools that fetch URLs: `WebFetch(domain:example.com)` matches that host,
 * `WebFetch(domain:*.example.com)` every subdomain of it (not the apex). Hosts compare
 * case-insensitively and without a trailing dot; ports are not part of a rule.
 */

/** Tools whose rule content is `domain:<host>`. */
export const DOMAIN_RULE_TOOLS: readonly string[] = ['WebFetch'];

const DOMAIN_PREFIX = 'domain:';
/** A host name or an IP literal as rules write it (letters, digits, dots, dashes, brackets, colons). */
const HOST = /^(\*\.)?[a-z0-9]([a-z0-9.:[\]-]*[a-z0-9\]])?$/;

/** The host of a domain rule's content, lower-cased, or null when it is not `domain:<host>`. */
export function ruleDomain(content: string): string | null {
  if (!content.startsWith(DOMAIN_PREFIX)) return null;
  const host = normalizeHost(content.slice(DOMAIN_PREFIX.length));
  return HOST.test(host) ? host : null;
}

/** Why a domain rule's content cannot work, or null. */
export function domainContentProblem(content: string): string | null {
  if (!content.startsWith(DOMAIN_PREFIX)) {
    return 'A WebFetch rule names a host: write WebFetch(domain:example.com) (or domain:*.example.com for its subdomains).';
  }
  const raw = content.slice(DOMAIN_PREFIX.length).trim();
  if (raw === '') return 'The domain is empty: write WebFetch(domain:example.com).';
  if (/[/?#@\s]/.test(raw) || raw.includes('://')) {
    return `"${raw}" is not a host name: give the host only (example.com), without a scheme, path or port.`;
  }
  return ruleDomain(content) ? null : `"${raw}" is not a host name.`;
}

function normalizeHost(host: string): string {
  return host.trim().toLowerCase().replace(/\.$/, '');
}

/** True when the domain rule `content` matches `host`. */
export function domainRuleMatches(content: string, host: string): boolean {
  const rule = ruleDomain(content);
  if (!rule) return false;
  const h = normalizeHost(host);
  if (rule.startsWith('*.')) return h.endsWith(rule.slice(1)) && h.length > rule.length - 1;
  return h === rule;
}

/** The rule "allow always" offers for a host. */
export function suggestDomainRule(toolName: string, host: string): string {
  return `${toolName}(${DOMAIN_PREFIX}${normalizeHost(host)})`;
}
