// runtime.json written together with where each part lies in it (runtime-at.json): the byte range of
// the providers, of the capabilities and of each operation, so a server parses an operation when it
// first reads it (runtime/catalog/runtime-parts.ts). The text is exactly JSON.stringify of the
// catalog, so a reader that parses it whole (the sandbox, tools) sees no difference.
import type { ByteRange, RuntimeCatalog, RuntimeLayout } from '../language/types.ts';

export function runtimeWithLayout(runtime: RuntimeCatalog): { text: string; layout: RuntimeLayout } {
  const parts: string[] = [];
  let at = 0;
  const put = (text: string): ByteRange => {
    const start = at;
    parts.push(text);
    at += Buffer.byteLength(text);
    return [start, at];
  };
  put('{"providers":');
  const providers = put(JSON.stringify(runtime.providers));
  put(',"operations":{');
  const operations: Record<string, ByteRange> = {};
  Object.entries(runtime.operations).forEach(([id, op], i) => {
    put(`${i ? ',' : ''}${JSON.stringify(id)}:`);
    operations[id] = put(JSON.stringify(op));
  });
  put('},"capabilities":');
  const capabilities = put(JSON.stringify(runtime.capabilities));
  put('}');
  return { text: parts.join(''), layout: { providers, capabilities, operations } };
}
