// Comments a reader can trust: one in src/ that names a .ts/.tsx file names one that
// exists, and none cites a tracker number ("issue 33"), which nobody reading the
// repository can look up (../shared/STYLE.md, "Naming and size"). Comments are read
// from the syntax tree, so a string that looks like a comment is not one.
import { readdirSync, readFileSync } from 'node:fs';
import { basename, join, normalize } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = new URL('../..', import.meta.url).pathname;

function filesUnder(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) =>
    e.name === 'node_modules' || e.name.startsWith('.') || e.name.startsWith('dist')
      ? []
      : e.isDirectory()
        ? filesUnder(join(dir, e.name))
        : [join(dir, e.name)],
  );
}

const repoFiles = ['src', 'test', 'bench', 'scripts', 'docs', 'bin'].flatMap(filesUnder);
const baseNames = new Set(repoFiles.map((f) => basename(f)));
const sources = filesUnder('src').filter((f) => /\.tsx?$/.test(f));

interface Comment {
  /** Where the comment starts in its file's text. */
  pos: number;
  text: string;
}

interface Parsed {
  file: string;
  comments: Comment[];
  lineOf: (pos: number) => number;
}

/** Every comment of a source text, once each, in order, with the line of a position. */
function commentsOf(file: string, text: string): Parsed {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const seen = new Map<number, Comment>();
  // JSX text has no trivia: "// x" between <Text> and </Text> is drawn, not a comment,
  // though the comment scanners, asked at a position inside it, would read one there.
  const jsxText: Array<[number, number]> = [];
  const take = (ranges: ts.CommentRange[] | undefined) => {
    for (const r of ranges ?? []) seen.set(r.pos, { pos: r.pos, text: text.slice(r.pos, r.end) });
  };
  const visit = (node: ts.Node) => {
    if (node.kind === ts.SyntaxKind.JsxText) return void jsxText.push([node.pos, node.end]);
    take(ts.getLeadingCommentRanges(text, node.getFullStart()));
    take(ts.getTrailingCommentRanges(text, node.getEnd()));
    node.getChildren(source).forEach(visit);
  };
  visit(source);
  return {
    file,
    comments: [...seen.values()]
      .filter((c) => !jsxText.some(([from, to]) => c.pos >= from && c.pos < to))
      .sort((a, b) => a.pos - b.pos),
    lineOf: (pos) => source.getLineAndCharacterOfPosition(pos).line + 1,
  };
}

/** A file a comment names exists: by its path from src/, the repository or the file, or by its name alone. */
function exists(named: string, from: string): boolean {
  if (!named.includes('/')) return baseNames.has(named);
  const clean = named.replace(/^\.\//, '');
  const besideFrom = normalize(join(from, '..', clean));
  return repoFiles.some((f) => f === clean || f.endsWith(`/${clean}`) || f === besideFrom);
}

const FILE_NAME = /(?<![\w/.:@-])((?:\.{1,2}\/)*[\w-]+(?:\/[\w.-]+)*\.tsx?)\b/g;
const TRACKER = /\bissues? #?\d+/gi;

/** `file:line what` for each match of `pattern` in a file's comments that `flag` keeps. */
function flagged(
  { file, comments, lineOf }: Parsed,
  pattern: RegExp,
  flag: (match: string) => string | null,
): string[] {
  return comments.flatMap((c) =>
    [...c.text.matchAll(pattern)].flatMap((m) => {
      const what = flag(m[1] ?? m[0]);
      return what === null ? [] : [`${file}:${lineOf(c.pos + m.index)} ${what}`];
    }),
  );
}

const missingFiles = (parsed: Parsed) =>
  flagged(parsed, FILE_NAME, (named) =>
    named.endsWith('.d.ts') || exists(named, parsed.file) ? null : `names ${named}, which does not exist`,
  );

const trackerNumbers = (parsed: Parsed) => flagged(parsed, TRACKER, (cited) => `cites ${cited}`);

// Parsing every file is most of this test's time; a file whose whole text, code and
// strings included, names no missing file and cites no number has no comment that
// does, so only the others are parsed.
const suspect = (file: string, text: string) =>
  [...text.matchAll(TRACKER)].length > 0 ||
  [...text.matchAll(FILE_NAME)].some((m) => !m[1]!.endsWith('.d.ts') && !exists(m[1]!, file));

const parsed = sources.flatMap((file) => {
  const text = readFileSync(join(ROOT, file), 'utf8');
  return suspect(file, text) ? [commentsOf(file, text)] : [];
});

describe('comments in src/', () => {
  it('name only .ts and .tsx files that exist', () => {
    const found = parsed.flatMap(missingFiles);
    expect(found, `\n${found.join('\n')}\n`).toEqual([]);
  });

  it('cite no tracker number: they name the docs/ page, or say why in words', () => {
    const found = parsed.flatMap(trackerNumbers);
    expect(found, `\n${found.join('\n')}\n`).toEqual([]);
  });
});

describe('the reader of comments', () => {
  const sample = [
    "const a = '// issue 1 in a string, gone.ts';",
    'const b = `/* issue 2 in a template ${a} gone.ts */`;',
    'const c = /\\/\\/ issue 3 gone\\.ts/;',
    '// Issue 4: a line comment naming gone-line.ts and status-rules.ts',
    '/**',
    ' * A JSDoc citing issues #5 and naming server/gone/jsdoc.tsx,',
    ' * src/domain/status-rules.ts and ./comments.test.ts.',
    ' */',
    'export const d = (',
    '  <Text>',
    '    {/* issue 6 in JSX braces, gone-jsx.tsx */}// issue 7 on screen, gone-text.ts',
    '  </Text>',
    '); // issue 8 after code: https://example.com/gone-url.ts',
    '/* issue 9 at the end, src/gone-end.ts */',
  ].join('\n');
  const file = 'test/docs/sample.tsx';
  const sampleParsed = commentsOf(file, sample);

  it('reads line comments, JSDoc, JSX comments and the last one, and no string, template, regex or JSX text', () => {
    expect(trackerNumbers(sampleParsed)).toEqual([
      `${file}:4 cites Issue 4`,
      `${file}:6 cites issues #5`,
      `${file}:11 cites issue 6`,
      `${file}:13 cites issue 8`,
      `${file}:14 cites issue 9`,
    ]);
  });

  it('flags a name that resolves nowhere, by base name or by path, and no URL', () => {
    expect(missingFiles(sampleParsed)).toEqual([
      `${file}:4 names gone-line.ts, which does not exist`,
      `${file}:6 names server/gone/jsdoc.tsx, which does not exist`,
      `${file}:11 names gone-jsx.tsx, which does not exist`,
      `${file}:14 names src/gone-end.ts, which does not exist`,
    ]);
  });
});
