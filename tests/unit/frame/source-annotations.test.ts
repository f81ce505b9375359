/**
 * @jest-environment node
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

import { annotateJsx, normalisePath } from '@/build-steps/source-annotations/annotate-jsx';

/** The attribute values in `code`, in source order. */
function locations(code: string): string[] {
  return Array.from(code.matchAll(/data-source-location="([^"]*)"/g), (match) => match[1] ?? '');
}

/** Whether `code` still parses as TSX without syntax errors. */
function parsesCleanly(code: string): boolean {
  const output = ts.transpileModule(code, {
    compilerOptions: { jsx: ts.JsxEmit.Preserve },
    fileName: 'check.tsx',
    reportDiagnostics: true,
  });
  return (output.diagnostics ?? []).length === 0;
}

describe('annotateJsx', () => {
  it('annotates intrinsic elements with 1-based line:col of their "<"', () => {
    const source = [
      'export default function Page() {',
      '  return (',
      '    <main className="p-4">',
      '      <h1>Titel</h1>',
      '      <img src="/a.png" alt="" />',
      '    </main>',
      '  );',
      '}',
    ].join('\n');
    const { code, annotated } = annotateJsx(source, 'app/page.tsx');
    expect(annotated).toBe(3);
    expect(locations(code)).toEqual(['app/page.tsx:3:5', 'app/page.tsx:4:7', 'app/page.tsx:5:7']);
    expect(code).toContain('<main data-source-location="app/page.tsx:3:5" className="p-4">');
    expect(code).toContain('<img data-source-location="app/page.tsx:5:7" src="/a.png" alt="" />');
    expect(parsesCleanly(code)).toBe(true);
  });

  it('keeps every line where it was', () => {
    const source = readFileSync(path.join(__dirname, '../../../components/pages/ComingSoon.tsx'), 'utf8');
    const { code, annotated } = annotateJsx(source, 'components/pages/ComingSoon.tsx');
    expect(annotated).toBeGreaterThan(3);
    const before = source.split('\n');
    const after = code.split('\n');
    expect(after).toHaveLength(before.length);
    // Each annotation names the line it sits on, and that line holds the element's opening tag.
    after.forEach((line, index) => {
      for (const match of line.matchAll(/data-source-location="[^":]+:(\d+):(\d+)"/g)) {
        expect(Number(match[1])).toBe(index + 1);
        expect(before[index]?.charAt(Number(match[2]) - 1)).toBe('<');
      }
    });
    expect(parsesCleanly(code)).toBe(true);
  });

  it('leaves components, member tags and fragments alone', () => {
    const source = 'const x = <><Header /><motion.div /><Foo.Bar>t</Foo.Bar><svg:rect /></>;';
    expect(annotateJsx(source, 'components/x.tsx')).toEqual({ code: source, annotated: 0 });
  });

  it('marks elements whose direct children include an expression as dynamic', () => {
    const source = [
      'const a = <p>{name}</p>;',
      'const b = <p>static {/* a comment */}</p>;',
      'const c = <div><span>{x}</span></div>;',
      'const d = <br />;',
    ].join('\n');
    const { code } = annotateJsx(source, 'components/a.tsx');
    const lines = code.split('\n');
    expect(lines[0]).toBe(
      'const a = <p data-source-location="components/a.tsx:1:11" data-dynamic-content="true">{name}</p>;',
    );
    expect(lines[1]).not.toContain('data-dynamic-content');
    expect(lines[2]).toBe(
      'const c = <div data-source-location="components/a.tsx:3:11"><span data-source-location="components/a.tsx:3:16" data-dynamic-content="true">{x}</span></div>;',
    );
    expect(lines[3]).not.toContain('data-dynamic-content');
  });

  it('does not annotate an element twice', () => {
    const source = '<h1 data-source-location="kept:1:1" data-dynamic-content="false">{t}</h1>';
    expect(annotateJsx(source, 'app/x.tsx').code).toBe(source);
  });

  it('handles generics, arrow functions and JSX inside attributes and expressions', () => {
    const source = [
      'function id<T,>(value: T): T { return value; }',
      'export const List = ({ items }: { items: string[] }) => (',
      '  <ul title={id<string>("x")}>',
      '    {items.map((item) => <li key={item}>{item}</li>)}',
      '    <Tooltip content={<b>hi</b>} />',
      '  </ul>',
      ');',
    ].join('\n');
    const { code } = annotateJsx(source, 'components/List.tsx');
    expect(locations(code)).toEqual([
      'components/List.tsx:3:3',
      'components/List.tsx:4:26',
      'components/List.tsx:5:23',
    ]);
    expect(parsesCleanly(code)).toBe(true);
  });

  it('writes paths with forward slashes and escapes characters JSX would decode', () => {
    expect(normalisePath('app\\[pageName]\\page.tsx')).toBe('app/[pageName]/page.tsx');
    expect(normalisePath('./app/page.tsx')).toBe('app/page.tsx');
    const { code } = annotateJsx('<p />', 'app/a&"b.tsx');
    expect(code).toBe('<p data-source-location="app/a&amp;&quot;b.tsx:1:1" />');
    expect(parsesCleanly(code)).toBe(true);
  });

  it('returns files without JSX unchanged', () => {
    const source = 'export const answer: number = 42;\n';
    expect(annotateJsx(source, 'lib/x.ts')).toEqual({ code: source, annotated: 0 });
  });
});

describe('the Turbopack loader (build-steps/source-annotations/loader.cjs)', () => {
  const root = path.join(__dirname, '../../..');

  /** Runs the loader in a plain Node process, as Turbopack's loader runner does. */
  function runLoader(resourcePath: string, source: string): string {
    const script = [
      "const loader = require('./build-steps/source-annotations/loader.cjs');",
      'const [resourcePath, source, root] = JSON.parse(process.argv[1]);',
      'process.stdout.write(loader.call({ getOptions: () => ({ root }), resourcePath }, source));',
    ].join('\n');
    return execFileSync(process.execPath, ['-e', script, JSON.stringify([resourcePath, source, root])], {
      cwd: root,
      encoding: 'utf8',
    });
  }

  it('annotates with the path relative to the project root', () => {
    const output = runLoader(path.join(root, 'components/pages/Example.tsx'), 'export const A = () => <h1>x</h1>;');
    expect(output).toBe('export const A = () => <h1 data-source-location="components/pages/Example.tsx:1:24">x</h1>;');
  });

  it('leaves files outside the project untouched', () => {
    const source = 'export const A = () => <h1>x</h1>;';
    expect(runLoader('/somewhere/else/A.tsx', source)).toBe(source);
  });
});
