// Every `svc` command by name, with the line `svc --help` shows for it, and how to load it. A command's
// module (and the runtime modules it needs: the MCP server, the build, money) loads only when that
// command runs or shows its own help, so `svc --help` and a mistyped command answer at once.
import type { ArgsDef, CommandDef } from 'citty';

type Command = CommandDef<ArgsDef>;

interface Listed {
  description: string;
  load: () => Promise<unknown>;
}

const COMMANDS: Record<string, Listed> = {
  search: { description: 'Search the catalog: svc search verify email', load: async () => (await import('./catalog.ts')).search },
  show: { description: 'Show one operation: parameters, cost, siblings, the command that runs it', load: async () => (await import('./catalog.ts')).show },
  find: {
    description: 'Describe a job; get candidates at once, then the judged picks: svc find "verify a list of emails"',
    load: async () => (await import('./catalog.ts')).find,
  },
  catalog: { description: 'The catalog as its providers bill it: svc catalog drift', load: async () => (await import('./drift.ts')).catalog },
  call: {
    description: 'Make a routed call: svc call people.email.find domain=stripe.com full_name="Jane Doe"',
    load: async () => (await import('./call.ts')).call,
  },
  hub: { description: 'Tools: small pipelines over svc calls that teams publish and run', load: async () => (await import('./hub.ts')).hub },
  me: {
    description:
      'Your team: balance, earnings and the providers you hold your own keys for; svc me feedback and svc me reviews list what it sent, svc me ledger its charges and credits',
    load: async () => (await import('./me.ts')).me,
  },
  team: { description: "Your team's tokens: list, create (named, with an expiry) and revoke", load: async () => (await import('./team.ts')).team },
  feedback: {
    description: 'Tell svc about a bug, wrong data, a missing provider, pricing or an idea',
    load: async () => (await import('./feedback.ts')).feedback,
  },
  review: {
    description: 'Say how useful an endpoint was this month (one review per team, endpoint and month)',
    load: async () => (await import('./feedback.ts')).review,
  },
  serve: {
    description: 'Run the service (as npm start): PORT, SVC_DATA_DIR, SVC_STORAGE, … from the environment',
    load: async () => (await import('./local.ts')).serve,
  },
  demo: {
    description: 'Run the service with the provider sandbox and a funded demo team (as npm run demo)',
    load: async () => (await import('./local.ts')).demo,
  },
  build: {
    description: 'Validate catalog-src/ and write dist/catalog/ and the dashboard (as npm run build)',
    load: async () => (await import('./local.ts')).build,
  },
  admin: { description: 'Administer teams on a running server (SVC_URL, SVC_ADMIN_TOKEN)', load: async () => (await import('./admin.ts')).admin },
  mcp: { description: 'Serve svc as an MCP server over stdio (reads SVC_URL and SVC_TOKEN)', load: async () => (await import('./mcp.ts')).mcp },
  batch: {
    description: 'Run a CSV or NDJSON list through a routed capability or a hub tool (hub:<tool_id>; reads SVC_URL and SVC_TOKEN); resumable with the same -o',
    load: async () => (await import('./batch.ts')).batch,
  },
};

/**
 * The commands for one command line: the one it names loaded (its meta given its listed line), every
 * other one as its name and line only, which is all the top-level usage reads.
 */
export async function commandsFor(name: string | undefined): Promise<Record<string, Command>> {
  const subs: Record<string, Command> = {};
  for (const [n, { description }] of Object.entries(COMMANDS)) subs[n] = { meta: { name: n, description } };
  const named = name !== undefined && Object.hasOwn(COMMANDS, name) ? name : undefined;
  if (named) {
    const cmd = (await COMMANDS[named].load()) as Command;
    subs[named] = { ...cmd, meta: { ...(cmd.meta as object), name: named, description: COMMANDS[named].description } };
  }
  return subs;
}
