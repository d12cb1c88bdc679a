// Resolves our relative `./x.js` imports to the `./x.ts` / `./x.tsx` sources
// for eslint-plugin-import (resolver interface v2), so no-restricted-paths and
// no-cycle see real files. Hand-written because the TypeScript resolvers pull in
// native platform bindings that npm 11 leaves out of the lockfile, breaking `npm ci`.
'use strict';
const { existsSync } = require('node:fs');
const { dirname, resolve } = require('node:path');

exports.interfaceVersion = 2;
exports.resolve = function resolveImport(source, file) {
  if (!source.startsWith('.')) return { found: false };
  const base = resolve(dirname(file), source);
  const stem = base.replace(/\.js$/, '');
  for (const candidate of [`${stem}.ts`, `${stem}.tsx`, base, `${base}/index.ts`]) {
    if (existsSync(candidate)) return { found: true, path: candidate };
  }
  return { found: false };
};
