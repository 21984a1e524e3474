// `npm start`: V8's young generation is held at its first size before any module loads (static
// imports would all load before this file's first line runs, so the server comes in by import()).
import './young-generation.ts';

await import('./serve.ts');
