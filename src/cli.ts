// The one place that wires things together: parses the command and hands the
// rest of the arguments to it. Commands load lazily so `status` and `--help`
// never pay for React.
import { isSea } from 'node:sea';
import {
  CONSOLE_USAGE,
  DEMO_USAGE,
  MAIN_USAGE,
  MAINTENANCE_USAGE,
  RUN_USAGE,
  STATUS_USAGE,
  WALL_USAGE,
} from './commands/usage.js';

export interface Command {
  usage: string;
  run(argv: string[]): Promise<number>;
}

type Loader = () => Promise<Command>;

// Stamped by scripts/bundle.js (esbuild `define`): package.json's version and the
// commit it was built from. Absent when the sources run unbundled (tests).
declare const CHECKWALL_BUILD: { version: string; commit: string } | undefined;

export function versionLine(): string {
  const build = typeof CHECKWALL_BUILD === 'undefined' ? undefined : CHECKWALL_BUILD;
  return build ? `checkwall ${build.version} (${build.commit})` : 'checkwall (unbundled sources)';
}

/** `native`: needs better-sqlite3's compiled module, which the single executable cannot carry. */
const COMMANDS: Record<string, { usage: string; load: Loader; native?: boolean }> = {
  demo: {
    usage: DEMO_USAGE,
    native: true,
    load: async () => ({ usage: DEMO_USAGE, run: (await import('./commands/demo.js')).runDemo }),
  },
  console: {
    usage: CONSOLE_USAGE,
    load: async () => ({ usage: CONSOLE_USAGE, run: (await import('./commands/console.js')).runConsole }),
  },
  wall: {
    usage: WALL_USAGE,
    load: async () => ({ usage: WALL_USAGE, run: (await import('./commands/wall.js')).runWall }),
  },
  status: {
    usage: STATUS_USAGE,
    load: async () => ({ usage: STATUS_USAGE, run: (await import('./commands/status.js')).runStatus }),
  },
  run: {
    usage: RUN_USAGE,
    load: async () => ({ usage: RUN_USAGE, run: (await import('./commands/run.js')).runRun }),
  },
  maintenance: {
    usage: MAINTENANCE_USAGE,
    load: async () => ({
      usage: MAINTENANCE_USAGE,
      run: (await import('./commands/maintenance.js')).runMaintenance,
    }),
  },
  exec: {
    usage: '',
    load: async () => {
      const exec = await import('./commands/exec.js');
      return { usage: exec.EXEC_USAGE, run: (argv) => exec.runExec(argv) };
    },
  },
  runner: {
    usage: '',
    load: async () => {
      const runner = await import('./commands/runner.js');
      return { usage: runner.RUNNER_USAGE, run: runner.runRunner };
    },
  },
  serve: {
    usage: '',
    native: true,
    load: async () => {
      const serve = await import('./commands/serve.js');
      return { usage: serve.SERVE_USAGE, run: serve.runServe };
    },
  },
};

export async function main(argv: string[]): Promise<number> {
  const [first, ...rest] = argv;
  if (first === '--help' || first === '-h' || first === 'help') {
    process.stdout.write(`${MAIN_USAGE}\n`);
    return 0;
  }
  if (first === '--version') {
    process.stdout.write(`${versionLine()}\n`);
    return 0;
  }
  // No command, or flags only: the console.
  const name = first === undefined || first.startsWith('-') ? 'console' : first;
  const args = name === first ? rest : argv;
  const entry = COMMANDS[name];
  if (!entry) {
    process.stderr.write(`checkwall: unknown command "${name}"\n\n${MAIN_USAGE}\n`);
    return 2;
  }
  if (entry.native && isSea()) {
    process.stderr.write(
      `checkwall ${name}: not in the single executable (it needs the native SQLite module); use the npm package: npm install -g checkwall\n`,
    );
    return 2;
  }
  const command = await entry.load();
  // After `--` the words are another program's (`checkwall exec -- cmd --help`).
  const own = args.includes('--') ? args.slice(0, args.indexOf('--')) : args;
  if (own.includes('--help') || own.includes('-h')) {
    process.stdout.write(`${command.usage}\n`);
    return 0;
  }
  return command.run(args);
}
