// The worked example of docs/hub.md as test data: "find a work email, then verify it".
export interface ToolFiles {
  tool: Record<string, unknown>;
  input: Record<string, unknown>;
  output: Record<string, unknown>;
  check: Record<string, unknown>;
}

export function emailTool(change: (f: ToolFiles) => void = () => {}): Record<string, string> {
  const f: ToolFiles = {
    tool: {
      name: 'Verified work email',
      summary: 'Finds a work email from a name and a company domain, then checks that it receives mail.',
      price_usd: 0.05,
      steps: [
        { id: 'find', call: 'svc.people.email.find', with: { domain: '{{input.domain}}', full_name: '{{input.full_name}}' } },
        { id: 'verify', call: 'svc.people.email.verify', with: { email: '{{steps.find.output.email}}' } },
      ],
      output: { email: '{{steps.find.output.email}}', status: '{{steps.verify.output.status}}' },
    },
    input: {
      type: 'object',
      additionalProperties: false,
      required: ['domain', 'full_name'],
      properties: { domain: { type: 'string', minLength: 3 }, full_name: { type: 'string', minLength: 3 } },
    },
    output: {
      type: 'object',
      required: ['email', 'status'],
      properties: { email: { type: 'string' }, status: { enum: ['deliverable', 'undeliverable', 'risky'] } },
    },
    // the sandbox's cheapest verifier calls every address undeliverable; `nohit-checkco` makes it
    // miss, so the next verifier answers (see docs/sandbox.md)
    check: { input: { domain: 'nohit-checkco.com', full_name: 'Jane Doe' }, expect: { status: 'deliverable' } },
  };
  change(f);
  return {
    'tool.json': JSON.stringify(f.tool),
    'input.schema.json': JSON.stringify(f.input),
    'output.schema.json': JSON.stringify(f.output),
    'check.json': JSON.stringify(f.check),
  };
}
