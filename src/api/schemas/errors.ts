// Section 7 of the spec: the error body (DECISION: its shape), and the one way a
// zod failure is told, wherever it happens.
import { z } from 'zod';

export const ApiErrorBodySchema = z.looseObject({
  statusCode: z.number().int(),
  error: z.string(),
  message: z.string(),
  details: z.array(z.looseObject({ path: z.string(), message: z.string() })).optional(),
  /**
   * A 403 of a key whose role is not enough: the role the request needs
   * (read, operate or admin; actions.ts ROLES, docs/roles.md).
   */
  requiredRole: z.string().optional(),
  /** A refusal a script acts on by name, not by its words (`window_ended`, docs/maintenance.md). */
  code: z.string().optional(),
  /** With `window_ended`: when the window ended. */
  endedAt: z.string().optional(),
});
export type ApiErrorBody = z.infer<typeof ApiErrorBodySchema>;

/**
 * A zod path as the API's details name it: `config.headers[0].key`; or, for
 * files people write (the service's config, the settings), `accounts.0.checks`.
 * '' for the whole value.
 */
export function formatPath(path: ReadonlyArray<PropertyKey>, dotted = false): string {
  let out = '';
  for (const part of path)
    out += typeof part === 'number' && !dotted ? `[${part}]` : `${out === '' ? '' : '.'}${String(part)}`;
  return out;
}

/**
 * The one way a zod failure is told, wherever it happens (a 400's details, a
 * config file, the settings file, an answer the client cannot read, the
 * channel form): each issue as its path and message. `prefix` goes before
 * every path (e.g. `query.`).
 */
export function zodIssues(
  error: z.ZodError,
  prefix = '',
  dotted = false,
): Array<{ path: string; message: string }> {
  // An unknown key (from a strict object) is told at its own path, one per key: a
  // typo is found where it was typed, not at the object around it.
  return error.issues.flatMap((issue) =>
    issue.code === 'unrecognized_keys'
      ? issue.keys.map((key) => ({
          path: prefix + formatPath([...issue.path, key], dotted),
          message: `unknown key "${key}"`,
        }))
      : [{ path: prefix + formatPath(issue.path, dotted), message: messageOf(issue) }],
  );
}

/**
 * Zod's words, but a key left out said as one ("Invalid input: expected string, received
 * undefined"), and a record's bad key said as its schema says it, not "Invalid key in record".
 */
function messageOf(issue: z.core.$ZodIssue): string {
  if (issue.code === 'invalid_key') return issue.issues[0]?.message ?? issue.message;
  return issue.code === 'invalid_type' && issue.message.endsWith(', received undefined')
    ? `is required (${issue.expected})`
    : issue.message;
}

export interface IssueText {
  separator?: string;
  /** What the whole value is called when an issue is about it. */
  root?: string;
  limit?: number;
  dotted?: boolean;
  /** Said after an unknown key's message, e.g. where the keys come from. */
  unknownKeyHint?: string;
}

/** The first `limit` issues as text, `path: message` joined by `separator`. */
export function describeIssues(
  error: z.ZodError,
  { separator = '; ', root = '(root)', limit = Infinity, dotted = false, unknownKeyHint }: IssueText = {},
): string {
  const hint = unknownKeyHint ? ` (${unknownKeyHint})` : '';
  return zodIssues(error, '', dotted)
    .slice(0, limit)
    .map((i) => `${i.path || root}: ${i.message}${i.message.startsWith('unknown key') ? hint : ''}`)
    .join(separator);
}
