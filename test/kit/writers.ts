import fs from "node:fs";
import path from "node:path";
import ts from "typescript";

/**
 * Every way the app can be written to from outside, read from the source (no module is loaded):
 * the server actions of every "use server" file under app/, the route handlers under app/ that
 * answer a writing method, and the paths our better-auth plugins define (`createAuthEndpoint`).
 * lib/auth/sensitive-changes.test.ts holds them against the list of sensitive changes.
 */

export type FoundAction = { name: string; permission: string | null; file: string };
export type FoundRoute = { key: string; permission: string | null; file: string };
export type Found<T> = { found: T[]; problems: string[] };

const WRITING_METHODS = ["POST", "PUT", "PATCH", "DELETE"] as const;

function sourceFiles(root: string, directory: string, keep: (name: string) => boolean): string[] {
  const found: string[] = [];
  const walk = (relative: string) => {
    for (const entry of fs.readdirSync(path.join(root, relative), { withFileTypes: true })) {
      const child = path.posix.join(relative, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== "node_modules" && !entry.name.startsWith(".")) walk(child);
      } else if (keep(entry.name)) found.push(child);
    }
  };
  walk(directory);
  return found.sort();
}

function parse(root: string, file: string): ts.SourceFile {
  return ts.createSourceFile(file, fs.readFileSync(path.join(root, file), "utf8"), ts.ScriptTarget.Latest, true, file.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
}

function where(source: ts.SourceFile, node: ts.Node): string {
  return `${source.fileName}:${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1}`;
}

function isUseServer(source: ts.SourceFile): boolean {
  const first = source.statements[0];
  return !!first && ts.isExpressionStatement(first) && ts.isStringLiteral(first.expression) && first.expression.text === "use server";
}

function unwrap(expression: ts.Expression): ts.Expression {
  let current = expression;
  while (ts.isAsExpression(current) || ts.isSatisfiesExpression(current) || ts.isParenthesizedExpression(current)) current = current.expression;
  return current;
}

function stringProperty(object: ts.ObjectLiteralExpression, key: string): string | null | undefined {
  for (const property of object.properties) {
    if (ts.isPropertyAssignment(property) && property.name.getText() === key) {
      const value = unwrap(property.initializer);
      if (ts.isStringLiteral(value) || ts.isNoSubstitutionTemplateLiteral(value)) return value.text;
      if (value.kind === ts.SyntaxKind.NullKeyword) return null;
      return undefined;
    }
  }
  return undefined;
}

/** `@/x/y` or `./y` → the repo-relative .ts file it names. */
function resolveImport(root: string, fromFile: string, specifier: string): string | null {
  const base = specifier.startsWith("@/") ? specifier.slice(2) : specifier.startsWith(".") ? path.posix.join(path.posix.dirname(fromFile), specifier) : null;
  if (base === null) return null;
  for (const candidate of [`${base}.ts`, `${base}.tsx`, `${base}/index.ts`]) if (fs.existsSync(path.join(root, candidate))) return candidate;
  return null;
}

/** The object literal an identifier names: declared in the file, or imported (through re-exports). */
function objectNamed(root: string, file: string, identifier: string, seen = new Set<string>()): ts.ObjectLiteralExpression | null {
  if (seen.has(`${file}#${identifier}`)) return null;
  seen.add(`${file}#${identifier}`);
  const source = parse(root, file);
  for (const statement of source.statements) {
    if (ts.isVariableStatement(statement)) {
      for (const declaration of statement.declarationList.declarations) {
        if (ts.isIdentifier(declaration.name) && declaration.name.text === identifier && declaration.initializer) {
          const value = unwrap(declaration.initializer);
          return ts.isObjectLiteralExpression(value) ? value : null;
        }
      }
    }
    const isImportOrReexport = ts.isImportDeclaration(statement) || (ts.isExportDeclaration(statement) && statement.moduleSpecifier);
    if (!isImportOrReexport) continue;
    const specifier = (statement.moduleSpecifier as ts.StringLiteral).text;
    const names = ts.isImportDeclaration(statement)
      ? statement.importClause?.namedBindings && ts.isNamedImports(statement.importClause.namedBindings)
        ? statement.importClause.namedBindings.elements
        : []
      : statement.exportClause && ts.isNamedExports(statement.exportClause)
        ? statement.exportClause.elements
        : [];
    const element = names.find((candidate) => candidate.name.text === identifier);
    const target = element ? resolveImport(root, file, specifier) : null;
    if (element && target) return objectNamed(root, target, (element.propertyName ?? element.name).text, seen);
  }
  return null;
}

/**
 * Every server action: each export of a "use server" file under app/ must be
 * `export const …Action = defineAction({ name, permission, … }, …)` (or of a definition object
 * imported from lib), else it is a problem — a raw exported function would be an action without
 * the wrapper, hence without a declared control.
 */
export function serverActions(root: string): Found<FoundAction> {
  const found: FoundAction[] = [];
  const problems: string[] = [];
  for (const file of sourceFiles(root, "app", (name) => /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name))) {
    const source = parse(root, file);
    if (!isUseServer(source)) continue;
    for (const statement of source.statements) {
      const isExported = ts.canHaveModifiers(statement) && ts.getModifiers(statement)?.some((modifier) => modifier.kind === ts.SyntaxKind.ExportKeyword);
      if (ts.isExportDeclaration(statement) || ts.isExportAssignment(statement)) {
        problems.push(`${where(source, statement)}: re-exports from a "use server" file; define each action here with defineAction`);
        continue;
      }
      if (!isExported) continue;
      if (!ts.isVariableStatement(statement)) {
        problems.push(`${where(source, statement)}: an exported server action not built with defineAction`);
        continue;
      }
      for (const declaration of statement.declarationList.declarations) {
        const call = declaration.initializer && unwrap(declaration.initializer);
        if (!call || !ts.isCallExpression(call) || call.expression.getText(source) !== "defineAction" || call.arguments.length === 0) {
          problems.push(`${where(source, declaration)}: export ${declaration.name.getText(source)} is not defineAction(…)`);
          continue;
        }
        const argument = unwrap(call.arguments[0]!);
        const definition = ts.isObjectLiteralExpression(argument) ? argument : ts.isIdentifier(argument) ? objectNamed(root, file, argument.text) : null;
        const name = definition ? stringProperty(definition, "name") : undefined;
        if (!definition || typeof name !== "string") {
          problems.push(`${where(source, declaration)}: cannot read the name of this defineAction (write it as a string literal)`);
          continue;
        }
        const permission = stringProperty(definition, "permission");
        found.push({ name, permission: permission ?? null, file });
      }
    }
  }
  return { found, problems };
}

/** "app/api/tokens/[id]/route.ts" → "/api/tokens/[id]" (route groups "(staff)" are not in URLs). */
export function urlOfRouteFile(file: string): string {
  const segments = path.posix.dirname(file).split("/").slice(1).filter((segment) => !/^\(.*\)$/.test(segment));
  return `/${segments.join("/")}`;
}

/** Every route handler that answers a writing method, as "METHOD /path", with its staffRoute permission when it has one. */
export function writingRoutes(root: string): Found<FoundRoute> {
  const found: FoundRoute[] = [];
  const problems: string[] = [];
  for (const file of sourceFiles(root, "app", (name) => /^route\.tsx?$/.test(name))) {
    const source = parse(root, file);
    const exported = new Map<string, ts.Node>();
    for (const statement of source.statements) {
      const isExported = ts.canHaveModifiers(statement) && ts.getModifiers(statement)?.some((modifier) => modifier.kind === ts.SyntaxKind.ExportKeyword);
      if (ts.isExportDeclaration(statement) && statement.exportClause && ts.isNamedExports(statement.exportClause)) {
        for (const element of statement.exportClause.elements) exported.set(element.name.text, statement);
      } else if (isExported && ts.isFunctionDeclaration(statement) && statement.name) {
        exported.set(statement.name.text, statement);
      } else if (isExported && ts.isVariableStatement(statement)) {
        for (const declaration of statement.declarationList.declarations) if (ts.isIdentifier(declaration.name)) exported.set(declaration.name.text, declaration);
      }
    }
    for (const method of WRITING_METHODS) {
      const node = exported.get(method);
      if (!node) continue;
      const text = node.getText(source);
      const permission = /staffRoute(?:<[^>]*>)?\(\s*\{\s*permission:\s*"([^"]+)"/.exec(text)?.[1] ?? null;
      found.push({ key: `${method} ${urlOfRouteFile(file)}`, permission, file });
    }
  }
  return { found, problems };
}

/**
 * The paths our better-auth plugins define: each `createAuthEndpoint(<path>, { method }, …)` under
 * lib/auth, its path a string or a constant `resolve` knows (`passkeyPaths.remove`, `SSO_START_PATH`).
 */
export function pluginEndpoints(root: string, resolve: (expression: string) => string | undefined): Found<{ path: string; file: string }> {
  const found: Array<{ path: string; file: string }> = [];
  const problems: string[] = [];
  for (const file of sourceFiles(root, "lib/auth", (name) => /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name))) {
    const source = parse(root, file);
    const visit = (node: ts.Node) => {
      if (ts.isCallExpression(node) && node.expression.getText(source) === "createAuthEndpoint" && node.arguments.length > 0) {
        const first = unwrap(node.arguments[0]!);
        const resolved = ts.isStringLiteral(first) || ts.isNoSubstitutionTemplateLiteral(first) ? first.text : resolve(first.getText(source));
        if (resolved === undefined) problems.push(`${where(source, node)}: cannot read the path ${first.getText(source)} (teach the test its constant)`);
        else found.push({ path: resolved, file });
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return { found, problems };
}
