export const SERVER_DIR: string;
export function serverFresh(outdir?: string): boolean;
export function compileServer(outdir?: string): Promise<void>;
