// First end of the pipeline: read catalog-src/ into memory, keeping each YAML node's position.
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { LineCounter, parseDocument, isMap, isSeq, type Document, type Node } from 'yaml';
import type { CapabilitySrc, FinderSrc, PlatformSrc, ProviderSrc, SourcePos, VocabularyFileSrc } from '../language/types.ts';

export interface SourceFile<T> {
  file: string;
  data: T;
  /** position of the node at a JSON path (falls back to the nearest ancestor) */
  pos: (path: Array<string | number>) => SourcePos;
}

export interface LoadedCatalog {
  root: string;
  platforms: SourceFile<{ platforms: PlatformSrc[] }> | null;
  /** finder.yaml, when the catalog has one: without it the finder knows no act */
  finder: SourceFile<FinderSrc> | null;
  capabilities: SourceFile<CapabilitySrc>[];
  /** vocabulary/: the words of capabilities that no file in capabilities/ routes */
  vocabularies: SourceFile<VocabularyFileSrc>[];
  providers: SourceFile<ProviderSrc>[];
  /** endpoint id -> raw text of examples/<id>.json */
  examples: Map<string, { file: string; text: string }>;
  /** true when only some providers were loaded (`--only`): examples of the others are not orphans */
  partial: boolean;
  /** provider keys (file names) whose file could not be read: their examples are not orphans */
  unreadable: Set<string>;
  /** YAML syntax errors, already positioned */
  syntaxErrors: Array<{ pos: SourcePos; message: string }>;
}

function positioned<T>(file: string, doc: Document, lines: LineCounter): SourceFile<T> {
  const pos = (path: Array<string | number>): SourcePos => {
    let node: unknown = doc.contents;
    let best = node as Node | null;
    for (const key of path) {
      if (isMap(node)) node = node.items.find((p) => (p.key as { value?: unknown })?.value === key)?.value ?? null;
      else if (isSeq(node)) node = node.items[Number(key)] ?? null;
      else node = null;
      if (!node) break;
      best = node as Node;
    }
    const offset = best?.range?.[0] ?? 0;
    const { line, col } = lines.linePos(offset);
    return { file, line, col };
  };
  return { file, data: doc.toJS() as T, pos };
}

/** Paths in messages: relative to the working directory when inside it, else absolute. */
export function displayPath(path: string): string {
  const rel = relative(process.cwd(), path);
  return rel.startsWith('..') ? path : rel;
}

function yamlFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.yaml'))
    .sort()
    .map((f) => join(dir, f));
}

export function loadCatalog(root: string, only?: Set<string>): LoadedCatalog {
  const syntaxErrors: LoadedCatalog['syntaxErrors'] = [];
  const read = <T>(path: string): SourceFile<T> | null => {
    const file = displayPath(path);
    const lines = new LineCounter();
    const doc = parseDocument(readFileSync(path, 'utf8'), { lineCounter: lines, prettyErrors: false });
    for (const err of doc.errors) {
      const { line, col } = lines.linePos(err.pos[0]);
      syntaxErrors.push({ pos: { file, line, col }, message: `YAML: ${err.message.split('\n')[0]}` });
    }
    if (doc.errors.length) return null;
    // every file is a mapping at the top; an empty file or a bare list is one error, not a crash later
    if (!isMap(doc.contents)) {
      const { line, col } = lines.linePos(doc.contents?.range?.[0] ?? 0);
      syntaxErrors.push({
        pos: { file, line, col },
        message: doc.contents ? 'expected a mapping (key: value lines) at the top of the file' : 'the file is empty',
      });
      return null;
    }
    return positioned<T>(file, doc, lines);
  };
  const platformsPath = join(root, 'platforms.yaml');
  const examples = new Map<string, { file: string; text: string }>();
  const exDir = join(root, 'examples');
  if (existsSync(exDir)) {
    for (const f of readdirSync(exDir)
      .filter((f) => f.endsWith('.json'))
      .sort()) {
      examples.set(f.slice(0, -'.json'.length), { file: displayPath(join(exDir, f)), text: readFileSync(join(exDir, f), 'utf8') });
    }
  }
  const providerPaths = yamlFiles(join(root, 'providers')).filter((p) => !only || only.has(basename(p, '.yaml')));
  const providers = providerPaths.map((p) => read<ProviderSrc>(p));
  return {
    root,
    platforms: existsSync(platformsPath) ? read(platformsPath) : null,
    finder: existsSync(join(root, 'finder.yaml')) ? read(join(root, 'finder.yaml')) : null,
    capabilities: yamlFiles(join(root, 'capabilities'))
      .map((p) => read<CapabilitySrc>(p))
      .filter((x) => x !== null),
    vocabularies: yamlFiles(join(root, 'vocabulary'))
      .map((p) => read<VocabularyFileSrc>(p))
      .filter((x) => x !== null),
    providers: providers.filter((x) => x !== null),
    unreadable: new Set(providerPaths.filter((_, i) => providers[i] === null).map((p) => basename(p, '.yaml'))),
    examples,
    partial: Boolean(only),
    syntaxErrors,
  };
}
