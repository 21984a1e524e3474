// One provider operation -> the seed's endpoint object (static part; observed/reviews are live).
import type { CapabilitySrc, CostOut, CostRuntime, CostSrc, EndpointOut, InputSrc, OperationSrc, PlatformSrc, ProviderSrc } from '../language/types.ts';
import { passThroughTemplate } from '../language/call-template.ts';
import { resolvePageSize } from './page-size.ts';

export function costOut(c: CostSrc | null): CostOut | null {
  if (!c) return null;
  return {
    type: c.type,
    value: c.value,
    currency: c.currency,
    per: c.per ?? 1,
    unit: c.unit,
    source: c.source,
    evidence: c.evidence ?? null,
    conflict: c.conflict ?? [],
    usd_evidence: c.usd_evidence ?? null,
    assumed: c.assumed ?? null,
    note: c.note ?? null,
    usd: c.usd,
    ...(c.rows_per_unit ? { rows_per_unit: c.rows_per_unit } : {}),
    ...(c.min_units ? { min_units: c.min_units } : {}),
    ...(c.reported_charge ? { reported_charge: c.reported_charge } : {}),
  };
}

/** What runtime.json keeps of a price: the figures and the reported-charge rule, not the evidence and prose. */
export function costRuntime(c: CostOut | null): CostRuntime | null {
  if (!c) return null;
  const { evidence, conflict, usd_evidence, assumed, note, ...figures } = c;
  void [evidence, conflict, usd_evidence, assumed, note];
  return figures;
}

/** Integer micro-USD of one unit; money is never a float past this point. */
export function priceMicro(c: CostSrc | CostOut | null): number {
  if (!c || c.type === 'free' || c.usd === null) return 0;
  return Math.round(c.usd * 1_000_000);
}

/**
 * The input object as published: every parameter says `required`, false included (a source may leave
 * it out); a path parameter left unsaid is required, since the path cannot be built without it.
 */
export function inputOut(input: InputSrc): InputSrc {
  const out: InputSrc = { ...input };
  for (const group of ['body', 'queryParams', 'pathParams'] as const) {
    const params = input[group];
    if (!params) continue;
    out[group] = Object.fromEntries(
      Object.entries(params).map(([name, { type, required, ...rest }]) => [name, { type, required: required ?? group === 'pathParams', ...rest }]),
    );
  }
  return out;
}

export function operationCapability(service: string, op: OperationSrc): string {
  return op.capability ?? op.serves ?? op.id.slice(service.length + 1);
}

/**
 * An `account.*` operation reports on the account of the key it is called with: on the platform key
 * that is svc's own provider account (credits, usage, key scopes, past searches), which no team
 * should read. So it is own-key only unless the operation itself says otherwise.
 */
const readsKeysAccount = (op: OperationSrc, provider: ProviderSrc): boolean => operationCapability(provider.service, op).startsWith('account.');

/** whether svc's platform key may serve the operation */
export function platformEligible(op: OperationSrc, provider: ProviderSrc): boolean {
  return op.platform_eligible ?? (readsKeysAccount(op, provider) ? false : (provider.defaults?.platform_eligible ?? true));
}

/** why the platform key may not serve it, when it may not */
function platformBlocked(op: OperationSrc, provider: ProviderSrc): string {
  return (
    op.platform_blocked ??
    provider.defaults?.platform_blocked ??
    (readsKeysAccount(op, provider)
      ? 'Reports on the account of the key it is called with, so it runs on your own key only (add one with POST /teams/me/keys/{provider}).'
      : "Needs the caller's own key.")
  );
}

export interface EndpointContext {
  provider: ProviderSrc;
  platforms: Map<string, PlatformSrc>;
  capabilities: Map<string, CapabilitySrc>;
  hasExample: boolean;
}

export function resolveEndpoint(op: OperationSrc, ctx: EndpointContext): EndpointOut {
  const d = ctx.provider.defaults ?? {};
  const capability = operationCapability(ctx.provider.service, op);
  const platform = (op.platform ?? d.platform)!;
  const eligible = platformEligible(op, ctx.provider);
  const out: EndpointOut = {
    id: op.id,
    provider: ctx.provider.service,
    provider_display: ctx.provider.display_name,
    name: op.name,
    summary: op.summary,
    method: op.method,
    path: op.path,
    scope: op.scope ?? d.scope ?? 'any_account',
    tier: op.tier ?? d.tier ?? (op.kind === 'utility' ? 'extended' : 'core'),
    kind: op.kind,
    domain: op.domain ?? d.domain ?? platform,
    call_template: passThroughTemplate(ctx.provider.service, op, resolvePageSize(op)),
    cost: costOut(op.cost),
    async: op.async ?? null,
    platform_eligible: eligible,
    platform_blocked: eligible ? null : platformBlocked(op, ctx.provider),
    miss: op.miss ? { status: op.miss.status?.[0] ?? 200, means: op.miss.means } : null,
    status: op.status ?? null,
    status_note: op.status_note ?? null,
    superseded_by: op.superseded_by ?? null,
    verified: op.verified ?? d.verified ?? null,
    added: op.added ?? d.added ?? null,
    docs_url: op.docs_url,
    has_example: ctx.hasExample,
    input: inputOut(op.input),
    test_request: op.test_request ?? null,
    capability,
    capability_description: ctx.capabilities.get(capability)?.description ?? op.summary,
    platform,
    platform_label: ctx.platforms.get(platform)?.label ?? platform,
    observed: null,
  };
  if (op.body_allowlist !== undefined) out.body_allowlist = op.body_allowlist;
  if (op.strict_query !== undefined) out.strict_query = op.strict_query;
  if (op.strict_body !== undefined) out.strict_body = op.strict_body;
  return out;
}
