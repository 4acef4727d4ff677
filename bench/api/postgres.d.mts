export const PG_BIN: string;
export function startPostgres(extraOptions?: string): { url: string; stop(): void } | null;
