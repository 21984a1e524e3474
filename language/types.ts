// Every catalog shape, from one import: what people write (source-types.ts) and what the build
// emits (dist-types.ts).
export type * from './source-types.ts';
export type * from './dist-types.ts';
