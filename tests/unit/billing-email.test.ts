// "The email must verify as real" (server/billing/email.ts): the address's form, the throwaway
// list with its subdomains, and the mail-exchanger look-up only when it is asked for.

import { afterEach, describe, expect, it, vi } from 'vitest';

const resolveMx = vi.fn();
vi.mock('node:dns/promises', () => ({ resolveMx }));
const { emailProblem, isDisposable } = await import('../../src/server/billing/email.ts');

afterEach(() => resolveMx.mockReset());

describe('emailProblem', () => {
  it('refuses an empty or malformed address', async () => {
    expect(await emailProblem('  ', { mx: false })).toBe('empty');
    expect(await emailProblem('owner@', { mx: false })).toBe('format');
    expect(await emailProblem('Owner <owner@example.com>', { mx: false })).toBe('format');
    expect(await emailProblem('owner@localhost', { mx: false })).toBe('format');
  });

  it('refuses throwaway domains from the maintained list, subdomains included', async () => {
    expect(isDisposable('mailinator.com')).toBe(true);
    expect(isDisposable('MAILINATOR.COM')).toBe(true);
    expect(isDisposable('example.com')).toBe(false);
    expect(await emailProblem('someone@mailinator.com', { mx: false })).toBe('disposable');
    expect(await emailProblem('owner@example.com', { mx: false })).toBeNull();
  });

  it('asks DNS only when told to, and refuses a domain that takes no mail', async () => {
    expect(await emailProblem('owner@example.com', { mx: false })).toBeNull();
    expect(resolveMx).not.toHaveBeenCalled();

    resolveMx.mockResolvedValueOnce([{ exchange: 'mx.example.com', priority: 10 }]);
    expect(await emailProblem('owner@example.com', { mx: true })).toBeNull();
    expect(resolveMx).toHaveBeenCalledWith('example.com');

    resolveMx.mockRejectedValueOnce(Object.assign(new Error('queryMx ENOTFOUND'), { code: 'ENOTFOUND' }));
    expect(await emailProblem('owner@no-such-domain.example', { mx: true })).toBe('noMail');
    resolveMx.mockResolvedValueOnce([]);
    expect(await emailProblem('owner@example.org', { mx: true })).toBe('noMail');
  });

  it('lets an address through when DNS itself cannot be reached', async () => {
    resolveMx.mockRejectedValueOnce(Object.assign(new Error('queryMx ETIMEOUT'), { code: 'ETIMEOUT' }));
    expect(await emailProblem('owner@example.com', { mx: true })).toBeNull();
  });
});
