// Comments a reader can trust: one in src/ that names a .ts/.tsx file names one that
// exists, and none cites a tracker number ("issue 33"), which nobody reading the
// repository can look up (../shared/STYLE.md, "Naming and size"). Comments are read
// from the syntax tree, so a string that looks like a comment is not one.
import { readdirSync, readFileSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
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

/** Every comment of a file, with its line. */
function comments(file: string): Array<{ line: number; text: string }> {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const seen = new Map<number, { line: number; text: string }>();
  const take = (ranges: ts.CommentRange[] | undefined) => {
    for (const r of ranges ?? [])
      seen.set(r.pos, {
        line: source.getLineAndCharacterOfPosition(r.pos).line + 1,
        text: text.slice(r.pos, r.end),
      });
  };
  const visit = (node: ts.Node) => {
    take(ts.getLeadingCommentRanges(text, node.getFullStart()));
    take(ts.getTrailingCommentRanges(text, node.getEnd()));
    node.getChildren(source).forEach(visit);
  };
  visit(source);
  return [...seen.values()];
}

/** A file a comment names exists: by its path from src/, the repository or the file, or by its name alone. */
function exists(named: string, from: string): boolean {
  if (!named.includes('/')) return baseNames.has(named);
  const clean = named.replace(/^\.\//, '');
  return repoFiles.some((f) => f === clean || f.endsWith(`/${clean}`) || f === join(from, '..', clean));
}

const all = sources.flatMap((file) => comments(file).map((c) => ({ file, ...c })));

describe('comments in src/', () => {
  it('name only .ts and .tsx files that exist', () => {
    const missing = all.flatMap(({ file, line, text }) =>
      [...text.matchAll(/(?<![\w/.:-])((?:\.{1,2}\/)?[\w-]+(?:\/[\w.-]+)*\.tsx?)\b/g)]
        .map((m) => m[1]!)
        .filter((named) => !named.endsWith('.d.ts') && !exists(named, file))
        .map((named) => `${relative(ROOT, join(ROOT, file))}:${line} names ${named}`),
    );
    expect(missing).toEqual([]);
  });

  it('cite no tracker number: they name the docs/ page, or say why in words', () => {
    const cited = all
      .filter(({ text }) => /\bissues? #?\d+/i.test(text))
      .map(({ file, line, text }) => `${file}:${line}: ${/\bissues? #?\d+/i.exec(text)![0]}`);
    expect(cited).toEqual([]);
  });
});
