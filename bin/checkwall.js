#!/usr/bin/env node
// React's development build leaks memory on every commit (React 19.2): production
// must be set before anything imports React.
process.env.NODE_ENV = 'production';
const { main } = await import('../dist/bundle/cli.js');
process.exitCode = await main(process.argv.slice(2));
