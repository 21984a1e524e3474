// A `svc` command run in this process against a server, its standard output collected: quicker than
// a child process on a loaded machine, and the same command code (citty's runCommand).
import { runCommand, type ArgsDef, type CommandDef } from 'citty';

export async function runInProcess<A extends ArgsDef>(command: CommandDef<A>, rawArgs: string[], svcUrl: string): Promise<string> {
  const written: string[] = [];
  const write = process.stdout.write;
  const url = process.env.SVC_URL;
  process.env.SVC_URL = svcUrl;
  process.stdout.write = ((chunk: string) => written.push(chunk) > 0) as typeof process.stdout.write;
  try {
    await runCommand(command, { rawArgs });
  } finally {
    process.stdout.write = write;
    if (url === undefined) delete process.env.SVC_URL;
    else process.env.SVC_URL = url;
  }
  return written.join('');
}
