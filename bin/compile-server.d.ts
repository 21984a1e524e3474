export const SERVER_DIR: string;
export function serverFresh(outdir?: string): boolean;
export function compileServer(outdir?: string): Promise<void>;
export function freshAfter(file: string, sources: string[]): boolean;
export function runCompiled(name: 'start' | 'demo'): Promise<void>;
export function compileEntry(name: string, entry: string, outdir: string): Promise<void>;
