// prom-client's default process families, one module each (what its collectDefaultMetrics calls
// in turn): metrics/process-defaults.ts takes every one but the event-loop delay monitor's.
declare module 'prom-client/lib/metrics/*.js' {
  import type { Registry } from 'prom-client';
  const register: (registry: Registry, config?: { gcDurationBuckets?: number[] }) => void;
  export default register;
}
