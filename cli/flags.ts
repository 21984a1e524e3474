// The parser lets unknown flags through silently; a misspelt `--max-costs 0.1` would then run the
// call on the 1 USD default. So the command a line names is found first, and every flag it does not
// declare is a usage error before anything is sent.
import type { ArgsDef, CommandDef } from 'citty';
import { CliFailure, EXIT } from './fail.ts';

type Command = CommandDef<ArgsDef>;

const kebab = (s: string) => s.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

/** the command the words name, the command it belongs to, and the names leading to it */
export function leaf(cmd: Command, words: string[], parent?: Command): { cmd: Command; parent?: Command; path: string[] } {
  const subs = cmd.subCommands as Record<string, Command> | undefined;
  const i = words.findIndex((w) => !w.startsWith('-'));
  const next = i >= 0 && subs ? subs[words[i]] : undefined;
  if (!next) return { cmd, parent, path: [] };
  const inner = leaf(next, words.slice(i + 1), cmd);
  return { ...inner, path: [words[i], ...inner.path] };
}

export function refuseUnknownFlags(root: Command, rawArgs: string[]): void {
  const { cmd, path } = leaf(root, rawArgs);
  const args = (cmd.args ?? {}) as ArgsDef;
  const named = Object.entries(args).filter(([, d]) => d.type !== 'positional');
  // a flag's short aliases (`-o` for `--out`) are its own too
  const known = new Set(named.flatMap(([name, d]) => [kebab(name), ...[(d as { alias?: string | string[] }).alias ?? []].flat()]));
  const booleans = new Set(
    Object.entries(args)
      .filter(([, d]) => d.type === 'boolean')
      .map(([name]) => kebab(name)),
  );
  const end = rawArgs.indexOf('--');
  for (const arg of end >= 0 ? rawArgs.slice(0, end) : rawArgs) {
    if (!arg.startsWith('-') || arg === '-') continue;
    const name = arg.replace(/^--?/, '').split('=')[0];
    if (known.has(name) || (name.startsWith('no-') && booleans.has(name.slice(3)))) continue;
    const command = ['svc', ...path].join(' ');
    // a switch that is on unless turned off is listed as its help and the docs write it: --no-<name>
    const flags = named.map(([name, d]) => `--${d.type === 'boolean' && d.default === true ? 'no-' : ''}${kebab(name)}`).join(', ');
    throw new CliFailure(`${command} has no option '${arg.split('=')[0]}'${flags ? `; its options are ${flags}` : ''}.`, EXIT.usage);
  }
}

/** A flag's whole number within bounds, or a usage error naming the flag, before anything is sent. */
export function wholeNumber(flag: string, text: string, min: number, max: number): number {
  const n = Number(text);
  if (!/^\s*\d+\s*$/.test(text) || n < min || n > max)
    throw new CliFailure(`${flag} takes a whole number from ${min} to ${max}; '${text}' is not one.`, EXIT.usage);
  return n;
}
