// The wire contract of ../shared/spec/monitoring-interface.md, in zod, one module
// per resource beside common.ts (what they share). Client and service both import
// it; every type in the project that describes wire data is z.infer of a schema
// here. Decisions where the spec says "not shown" are marked DECISION and listed in
// docs/decisions.md.
export * from './common.js';
export * from './enums.js';
export * from './results.js';
export * from './heartbeats.js';
export * from './statuses.js';
export * from './history.js';
export * from './dashboards.js';
export * from './channels.js';
export * from './alerts.js';
export * from './catalogue.js';
export * from './maintenance.js';
export * from './actions.js';
export * from './runner.js';
export * from './errors.js';
