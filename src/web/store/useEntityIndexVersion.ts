import { useCallback, useSyncExternalStore } from 'react';
import type { EntityIndex } from './entityIndex.ts';

/** Re-renders when the entity index changes; the version keys memoised searches. */
export function useEntityIndexVersion(index: EntityIndex): number {
  const subscribe = useCallback((fn: () => void) => index.subscribe(fn), [index]);
  return useSyncExternalStore(subscribe, () => index.version);
}
