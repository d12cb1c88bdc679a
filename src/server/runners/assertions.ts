// Evaluates a check's assertions against a response. A failed assertion keeps
// the value it saw in `actual`.
import type { Assertion, ResultCertificate } from '../../api/schemas/index.js';
import type { AssertionConfig } from '../config/schema.js';

export interface Observed {
  statusCode: number;
  headers: Record<string, string>;
  body: string;
  responseTime: number;
  /** The TLS certificate the run was shown; null or absent: none (plain HTTP). */
  certificate?: ResultCertificate | null | undefined;
  /** Why the body is not there to judge (it was cut): body assertions fail saying so, unevaluated. */
  bodyMissing?: string | undefined;
}

const BODY_SOURCES: ReadonlySet<AssertionConfig['source']> = new Set(['TEXT_BODY', 'JSON_BODY']);

export function evaluateAssertions(assertions: readonly AssertionConfig[], seen: Observed): Assertion[] {
  return assertions.map((a) => {
    if (seen.bodyMissing !== undefined && BODY_SOURCES.has(a.source)) {
      const { source, property, comparison, target } = a;
      return {
        source,
        property,
        comparison,
        target,
        passed: false,
        actual: `not evaluated: ${seen.bodyMissing}`,
      };
    }
    const actual = observe(a, seen);
    const passed = compare(a.comparison, actual, a.target);
    const result: Assertion = {
      source: a.source,
      property: a.property,
      comparison: a.comparison,
      target: a.target,
      passed,
    };
    if (!passed) result.actual = actual === undefined ? '(absent)' : clip(actual);
    return result;
  });
}

/** A failed TEXT_BODY assertion would otherwise copy the whole body, past the stored-body cap. */
export const MAX_ACTUAL_CHARS = 1000;

function clip(actual: string): string {
  return actual.length <= MAX_ACTUAL_CHARS ? actual : `${actual.slice(0, MAX_ACTUAL_CHARS)}…`;
}

function observe(a: AssertionConfig, seen: Observed): string | undefined {
  switch (a.source) {
    case 'STATUS_CODE':
      return String(seen.statusCode);
    case 'RESPONSE_TIME':
      return String(seen.responseTime);
    case 'HEADERS':
      return seen.headers[a.property.toLowerCase()];
    case 'TEXT_BODY':
      return seen.body;
    case 'JSON_BODY':
      return jsonPath(seen.body, a.property);
    case 'CERTIFICATE':
      return certificateDays(seen.certificate, a.property);
  }
}

/** `daysRemaining` or `chainDaysRemaining` of the certificate; absent without one (the chain's on a browser run). */
function certificateDays(c: ResultCertificate | null | undefined, property: string): string | undefined {
  const days = property === 'chainDaysRemaining' ? c?.chainDaysRemaining : c?.daysRemaining;
  return days === null || days === undefined ? undefined : String(days);
}

/** `$.a.b[0].c` over a JSON body; objects come back as JSON text. */
export function jsonPath(body: string, path: string): string | undefined {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return undefined;
  }
  const steps = path.replace(/^\$\.?/, '').match(/[^.[\]]+|\[\d+\]/g) ?? [];
  for (const step of steps) {
    if (value === null || typeof value !== 'object') return undefined;
    const key = step.startsWith('[') ? Number(step.slice(1, -1)) : step;
    value = (value as Record<string | number, unknown>)[key];
  }
  if (value === undefined) return undefined;
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function compare(
  comparison: AssertionConfig['comparison'],
  actual: string | undefined,
  target: string,
): boolean {
  switch (comparison) {
    case 'EQUALS':
      return actual === target;
    case 'NOT_EQUALS':
      return actual !== target;
    case 'CONTAINS':
      return actual !== undefined && actual.includes(target);
    case 'NOT_CONTAINS':
      return actual === undefined || !actual.includes(target);
    case 'LESS_THAN':
      return actual !== undefined && Number(actual) < Number(target);
    case 'GREATER_THAN':
      return actual !== undefined && Number(actual) > Number(target);
    case 'IS_EMPTY':
      return actual === undefined || actual === '' || actual === '[]' || actual === '{}';
    case 'NOT_EMPTY':
      return actual !== undefined && actual !== '' && actual !== '[]' && actual !== '{}';
  }
}
