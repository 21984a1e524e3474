// Types of the module beside this file, written by `npm run build` (runtime/http/request-check-sources.ts).
import type { ValidateFunction } from 'ajv/dist/2020.js';

/** validators compiled ahead, by their schema's JSON text */
export declare const checks: Record<string, ValidateFunction>;
