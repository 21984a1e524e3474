// A tool over the real catalog that chains three capabilities: a LinkedIn URL to a person, their
// work email, and that email verified. Search finds it by needs that span the chain.
export function linkedinEmailTool(): Record<string, string> {
  const tool = {
    name: 'LinkedIn to verified email',
    summary: "Reads a LinkedIn profile, finds the person's work email at their company, then checks that it receives mail.",
    price_usd: 0.04,
    steps: [
      { id: 'person', call: 'svc.people.enrich', with: { linkedin_url: '{{input.linkedin_url}}' } },
      { id: 'find', call: 'svc.people.email.find', with: { domain: '{{steps.person.output.company_domain}}', full_name: '{{steps.person.output.full_name}}' } },
      { id: 'verify', call: 'svc.people.email.verify', with: { email: '{{steps.find.output.email}}' } },
    ],
    output: { email: '{{steps.find.output.email}}', status: '{{steps.verify.output.status}}', full_name: '{{steps.person.output.full_name}}' },
  };
  const input = {
    type: 'object',
    additionalProperties: false,
    required: ['linkedin_url'],
    properties: { linkedin_url: { type: 'string', minLength: 10, description: 'a LinkedIn profile URL' } },
  };
  const output = {
    type: 'object',
    required: ['email', 'status'],
    properties: { email: { type: 'string' }, status: { type: 'string' }, full_name: { type: 'string' } },
  };
  const check = { input: { linkedin_url: 'https://www.linkedin.com/in/jane-doe' } };
  return {
    'tool.json': JSON.stringify(tool),
    'input.schema.json': JSON.stringify(input),
    'output.schema.json': JSON.stringify(output),
    'check.json': JSON.stringify(check),
  };
}
