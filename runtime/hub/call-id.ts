// A hub run's call id. Temporary: the routed calls' shared call-id generator replaces this when it lands.
import { randomUUID } from 'node:crypto';

export const newCallId = (): string => randomUUID();
