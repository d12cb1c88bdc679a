#!/usr/bin/env node
// React's development build leaks memory on every commit (React 19.2): production
// must be set before anything imports React.
process.env.NODE_ENV = 'production';
// Before the program loads: the V8 settings that keep the console small (src/store/v8-flags.ts).
const { setConsoleV8Flags } = await import('../dist/bundle/v8-flags.js');
setConsoleV8Flags(process.argv.slice(2));
const { main } = await import('../dist/bundle/cli.js');
process.exitCode = await main(process.argv.slice(2));
