// The script catalogue (SPEC §3): contexts, fields, operators, actions, the beacon object and the
// limits. The engine, the API's validation, the reference for authors and the editors read it.

export * from './actions.ts';
export * from './beacon.ts';
export * from './contexts.ts';
export * from './cron.ts';
export * from './fields.ts';
export * from './limits.ts';
export * from './operators.ts';
export * from './simple.ts';
