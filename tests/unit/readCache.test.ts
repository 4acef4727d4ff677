import { describe, expect, it } from 'vitest';
import type { Bus, BusHandler } from '../../src/server/cluster/bus.ts';
import {
  createReadCache,
  MAX_AGE_MS,
  SETTINGS_MAX_AGE_MS,
  sharedReadCache,
} from '../../src/server/model/readCache.ts';

/** A load that answers when told to, counting how often it was asked. */
function slowLoad() {
  let calls = 0;
  const answers: ((v: string) => void)[] = [];
  return {
    load: () => {
      calls++;
      return new Promise<string>((resolve) => answers.push(resolve));
    },
    answer: (v: string) => answers.shift()?.(v),
    get calls() {
      return calls;
    },
  };
}

describe('the read cache', () => {
  it('shares one load among callers and keeps its answer until a write', async () => {
    const cache = createReadCache();
    const l = slowLoad();
    const first = cache.get('k', l.load);
    const second = cache.get('k', l.load);
    l.answer('v1');
    expect([await first, await second]).toEqual(['v1', 'v1']);
    expect(await cache.get('k', l.load)).toBe('v1');
    expect(l.calls).toBe(1);
    cache.invalidate();
    const third = cache.get('k', l.load);
    l.answer('v2');
    expect(await third).toBe('v2');
    expect(l.calls).toBe(2);
  });

  it('drops answers past their age, so keys typed once are not held until a write', async () => {
    let clock = 0;
    const cache = createReadCache(MAX_AGE_MS, () => clock);
    for (let i = 0; i < 100; i++) await cache.get(`search ${i}`, async () => [i]);
    expect(cache.size).toBe(100);
    clock = MAX_AGE_MS;
    await cache.get('fresh', async () => 'x');
    expect(cache.size).toBe(1);
    expect(await cache.get('fresh', async () => 'y')).toBe('x');
  });

  it("keeps a setting past the cache's own age, up to a setting's, and forgets it at a write", async () => {
    let clock = 0;
    const cache = createReadCache(MAX_AGE_MS, () => clock);
    let loads = 0;
    const load = async () => ++loads;
    expect(await cache.setting('setting', load)).toBe(1);
    expect(await cache.get('search', load)).toBe(2);
    clock = MAX_AGE_MS;
    // Past the cache's own age: the search is read again, the setting is not.
    expect(await cache.get('search', load)).toBe(3);
    expect(await cache.setting('setting', load)).toBe(1);
    clock = SETTINGS_MAX_AGE_MS - 1;
    expect(await cache.setting('setting', load)).toBe(1);
    clock = SETTINGS_MAX_AGE_MS;
    expect(await cache.setting('setting', load)).toBe(4);
    cache.invalidate();
    expect(await cache.setting('setting', load)).toBe(5);
  });

  it('does not keep an answer whose load began before a write', async () => {
    const cache = createReadCache();
    const l = slowLoad();
    const before = cache.get('k', l.load);
    cache.invalidate();
    const after = cache.get('k', l.load);
    l.answer('old');
    l.answer('new');
    expect(await before).toBe('old');
    expect(await after).toBe('new');
    expect(await cache.get('k', l.load)).toBe('new');
    expect(l.calls).toBe(2);
  });

  it('asks again once an answer is older than its age, and after a failed load', async () => {
    let clock = 0;
    const cache = createReadCache(MAX_AGE_MS, () => clock);
    let n = 0;
    const load = async () => ++n;
    expect(await cache.get('k', load)).toBe(1);
    clock = MAX_AGE_MS - 1;
    expect(await cache.get('k', load)).toBe(1);
    clock = MAX_AGE_MS;
    expect(await cache.get('k', load)).toBe(2);
    await expect(cache.get('bad', () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    expect(await cache.get('bad', load)).toBe(3);
  });

  it('makes the other processes on a shared bus forget, and forgets when they write', async () => {
    const handlers = new Map<string, BusHandler[]>();
    const sent: string[] = [];
    const bus: Bus = {
      nodeId: 'here',
      publish: async (topic) => {
        sent.push(topic);
      },
      on: (topic, h) => handlers.set(topic, [...(handlers.get(topic) ?? []), h]),
      close: async () => {},
    };
    const cache = sharedReadCache(bus);
    let n = 0;
    const load = async () => ++n;
    await cache.get('k', load);
    cache.invalidate();
    expect(sent).toHaveLength(1);
    expect(await cache.get('k', load)).toBe(2);
    for (const hs of handlers.values()) for (const h of hs) h(null, 'there');
    expect(await cache.get('k', load)).toBe(3);
    expect(sent).toHaveLength(1);
  });
});
