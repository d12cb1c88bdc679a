// Which checks a scope names: by id, by group, by tag. Maintenance windows have such
// a scope; whoever asks which checks a window covers asks here.
import type { CheckConfig } from './schema.js';

export interface CheckScope {
  checks?: readonly string[] | undefined;
  groups?: readonly string[] | undefined;
  tags?: readonly string[] | undefined;
}

export function scopeCovers({ checks, groups, tags }: CheckScope, check: CheckConfig): boolean {
  return (
    (checks?.includes(check.id) ?? false) ||
    (check.group !== undefined && (groups?.includes(check.group) ?? false)) ||
    (tags?.some((t) => check.tags.includes(t)) ?? false)
  );
}
