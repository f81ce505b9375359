/**
 * Adds `data-source-location="path:line:col"` to every intrinsic JSX element (`<h1>`, `<div>`,
 * not `<Component>`), and `data-dynamic-content="true"` when its children include a `{...}`
 * expression, so the editor can map a clicked element back to the line that renders it.
 *
 * Only text is inserted, right after the tag name and on the same line, so every line number in the
 * file (and in error stacks and source maps) stays what the author sees. Positions are computed on
 * the original text and insertions applied from the end, so earlier insertions cannot shift later
 * ones.
 */
import ts from 'typescript';

export const SOURCE_LOCATION_ATTRIBUTE = 'data-source-location';
export const DYNAMIC_CONTENT_ATTRIBUTE = 'data-dynamic-content';

export interface AnnotationResult {
  code: string;
  /** How many elements were annotated. */
  annotated: number;
}

/** `<div>`, `<h1>`, `<my-element>`: a plain lowercase name, which React renders as a DOM element. */
function isIntrinsicTag(tagName: ts.JsxTagNameExpression): boolean {
  return ts.isIdentifier(tagName) && /^[a-z]/.test(tagName.text);
}

function hasAttribute(attributes: ts.JsxAttributes, name: string): boolean {
  return attributes.properties.some(
    (property) => ts.isJsxAttribute(property) && ts.isIdentifier(property.name) && property.name.text === name,
  );
}

/** A direct child `{expression}`; an empty `{/* comment *\/}` renders nothing and does not count. */
function hasExpressionChild(element: ts.JsxElement): boolean {
  return element.children.some((child) => ts.isJsxExpression(child) && child.expression !== undefined);
}

/** The value as a JSX attribute string: JSX decodes entities, so `&` and `"` are written as entities. */
function attributeValue(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/"/g, '&quot;');
}

/** `app\\page.tsx` -> `app/page.tsx`, so the editor sees the same path on every platform. */
export function normalisePath(relativePath: string): string {
  return relativePath.split('\\').join('/').replace(/^\.\//, '');
}

/**
 * Annotates `source`. `relativePath` is the file's path from the repository root; it is written
 * into the attribute as given (after normalising separators).
 */
export function annotateJsx(source: string, relativePath: string): AnnotationResult {
  const path = normalisePath(relativePath);
  const kind = path.endsWith('.jsx') ? ts.ScriptKind.JSX : ts.ScriptKind.TSX;
  const file = ts.createSourceFile(path, source, ts.ScriptTarget.Latest, true, kind);
  const insertions: { at: number; text: string }[] = [];

  const visit = (node: ts.Node): void => {
    if (ts.isJsxOpeningElement(node) || ts.isJsxSelfClosingElement(node)) {
      if (isIntrinsicTag(node.tagName) && !hasAttribute(node.attributes, SOURCE_LOCATION_ATTRIBUTE)) {
        const start = node.getStart(file); // the `<`
        const { line, character } = file.getLineAndCharacterOfPosition(start);
        let text = ` ${SOURCE_LOCATION_ATTRIBUTE}="${attributeValue(`${path}:${line + 1}:${character + 1}`)}"`;
        const dynamic = ts.isJsxOpeningElement(node) && ts.isJsxElement(node.parent) && hasExpressionChild(node.parent);
        if (dynamic && !hasAttribute(node.attributes, DYNAMIC_CONTENT_ATTRIBUTE)) {
          text += ` ${DYNAMIC_CONTENT_ATTRIBUTE}="true"`;
        }
        // Right after the tag name, before the first attribute.
        insertions.push({ at: node.tagName.end, text });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(file);

  let code = source;
  for (const { at, text } of insertions.sort((a, b) => b.at - a.at)) {
    code = code.slice(0, at) + text + code.slice(at);
  }
  return { code, annotated: insertions.length };
}
