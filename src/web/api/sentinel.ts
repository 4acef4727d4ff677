// Typed calls of Sentinel v4 (SENTINEL-API.md). Paths are relative to `{api}/v4`.

import type { BulkResult, Page, Service, SessionInfo, TokenResponse, User } from '../../domain/api.ts';
import { REQUIRED_POLICIES } from '../../domain/constants.ts';
import type { Http, Query } from './http.ts';

export interface ListParams extends Query {
  page?: number;
  pageSize?: number;
  sortedColumn?: string;
  sortDirection?: 'ascending' | 'descending';
}

export function createSentinelApi(http: Http) {
  /** Generic class path calls of SENTINEL-API §2.2, for the lists and entities later issues add. */
  const classPath = <T>(path: string) => ({
    list: (params: ListParams = {}, expect?: string[]) =>
      http<Page<T>>('GET', path, { query: params, expect }),
    get: (id: string) =>
      http<T>('GET', `${path}/${encodeURIComponent(id)}`, { expect: ['objectNotFound', 'forbidden'] }),
    patch: (id: string, patch: Partial<T>) =>
      http<T>('PATCH', `${path}/${encodeURIComponent(id)}`, {
        body: patch,
        expect: ['forbidden', 'validation'],
      }),
    bulk: (objects: Partial<T>[]) => http<BulkResult<T>>('POST', path, { body: objects }),
    remove: (id: string) =>
      http<true>('DELETE', `${path}/${encodeURIComponent(id)}`, { expect: ['forbidden'] }),
  });

  return {
    http,
    services: classPath<Service>('/sentinel/services'),
    classPath,
    user: (deviceId: string, returnUrl: string) =>
      http<User>('GET', '/user', {
        query: { deviceId, requiredPolicies: REQUIRED_POLICIES.join(','), return: returnUrl },
        expect: ['policyRequired'],
      }),
    channelAuth: (socketId: string, channelName: string) =>
      http<{ auth: string }>('POST', '/pusher/channelAuth', {
        form: { socket_id: socketId, channel_name: channelName },
        expect: ['forbidden', 'notFound'],
      }),
    session: () => http<SessionInfo>('GET', '/session'),
    deleteSession: (accessToken: string) =>
      http<true>('DELETE', `/sessions/${encodeURIComponent(accessToken)}`),
    token: (deviceId: string, body: Record<string, string>) =>
      http<TokenResponse>('POST', '/login', {
        auth: false,
        query: { deviceId },
        body,
        expect: ['INVALID_GRANT', 'INVALID_CODE', 'EXPIRED', 'INVALID_SCOPES'],
      }),
  };
}

export type SentinelApi = ReturnType<typeof createSentinelApi>;
