export const CLI_DIR: string;
export function cliFresh(outdir?: string): boolean;
export function compileCli(outdir?: string): Promise<void>;
