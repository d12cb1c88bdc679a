// Moved to schemas/: this re-export stands until every import names schemas/index.js.
export * from './schemas/index.js';
