// `svc feedback KIND MESSAGE` and `svc review ENDPOINT useful|partly|not_useful REASON`.
import { defineCommand } from 'citty';
import { FEEDBACK_KINDS, USEFULNESS } from '../runtime/feedback/kinds.ts';
import { oneOf } from './fields.ts';
import { asTeam } from './http.ts';
import { json, note, printJson } from './print.ts';

export const feedback = defineCommand({
  meta: { name: 'feedback' },
  args: {
    kind: { type: 'positional', required: true, description: 'bug, wrong_data, missing, pricing, idea or other' },
    message: { type: 'positional', required: true, description: 'what happened or what you want (quote it, or write it as several words)' },
    endpoint: { type: 'string', description: 'the endpoint id it is about' },
    capability: { type: 'string', description: 'the capability it is about' },
    json,
  },
  async run({ args }) {
    const body = {
      kind: oneOf('the kind', args.kind, FEEDBACK_KINDS),
      message: args._.slice(1).join(' '),
      ...(args.endpoint ? { endpoint_id: args.endpoint } : {}),
      ...(args.capability ? { capability: args.capability } : {}),
    };
    const res = await asTeam<{ id: number; status: string; created_at: string }>('/feedback', { body });
    if (args.json) printJson(res);
    else note(`feedback ${res.id} ${res.status}; thank you`);
  },
});

export const review = defineCommand({
  meta: { name: 'review' },
  args: {
    endpoint: { type: 'positional', required: true, description: 'endpoint id, e.g. svc.people.email.verify' },
    usefulness: { type: 'positional', required: true, description: 'useful, partly or not_useful' },
    reason: { type: 'positional', required: true, description: 'why, in a sentence (up to 500 characters)' },
    json,
  },
  async run({ args }) {
    const body = {
      endpoint_id: args.endpoint,
      usefulness: oneOf('usefulness', args.usefulness, USEFULNESS),
      reason: args._.slice(2).join(' '),
      client: 'svc-cli',
    };
    const res = await asTeam<{ id: number; endpoint_id: string; usefulness: string; month: string; replaced: boolean }>('/reviews', { body });
    if (args.json) printJson(res);
    // one review per team, operation and month stands: say when this one took an earlier one's place
    else
      note(
        `review ${res.id} of ${res.endpoint_id} for ${res.month}: ${res.usefulness}${res.replaced ? " (replaces your team's earlier review of it this month)" : ''}`,
      );
  },
});
