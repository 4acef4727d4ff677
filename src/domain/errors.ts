// API error bodies and the codes each call may answer with (SENTINEL-API §2, SPEC §8).

export interface ApiErrorBody {
  type: 'beacon.error';
  code?: string;
  message: string;
  details: unknown;
}

export function isApiErrorBody(v: unknown): v is ApiErrorBody {
  return typeof v === 'object' && v !== null && (v as { type?: unknown }).type === 'beacon.error';
}

export function errorBody(message: string, code?: string, details: unknown = null): ApiErrorBody {
  return code === undefined
    ? { type: 'beacon.error', message, details }
    : { type: 'beacon.error', code, message, details };
}

/** Codes the console reacts to by name; anything a helper does not expect becomes 'generic'. */
export const ErrorCode = {
  generic: 'generic',
  forbidden: 'forbidden',
  objectNotFound: 'objectNotFound',
  notFound: 'notFound',
  missingProperties: 'missingProperties',
  duplicate: 'duplicate',
  badContentType: 'badContentType',
  noObjects: 'noObjects',
  notObjectOrArray: 'notObjectOrArray',
  nonObjectMember: 'nonObjectMember',
  missingTargetId: 'missingTargetId',
  missingType: 'missingType',
  badType: 'badType',
  policyRequired: 'policyRequired',
  serviceNotConnected: 'serviceNotConnected',
  validation: 'validation',
  rateLimited: 'rateLimited',
} as const;
