/**
 * The editor protocol (docs/SPEC.md section 7, docs/PLATFORM-NOTES.md "Parent frame"), as the reference agent
 * in `@base44/vite-plugin` 1.0.42 speaks it: what the editor sends (incoming.ts, with a strict
 * parser per type), how it is handled (handlers.ts: one handler per type) and what we send back
 * (outgoing.ts).
 */
export * from './shape';
export * from './incoming';
export * from './outgoing';
export * from './handlers';
