// The BROWSER-PERF §2 baseline: a react-virtual list holding every line in memory, appending what
// is due on every frame (flushSync), following the tail.

import { useVirtualizer } from '@tanstack/react-virtual';
import { useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import type { LogMessage } from '../../src/domain/api.ts';

export interface NaiveHandle {
  scroller(): HTMLElement;
  push(lines: LogMessage[]): void;
}

export function NaiveList({ rows, handle }: { rows: LogMessage[]; handle: { current: NaiveHandle | null } }) {
  const [count, setCount] = useState(rows.length);
  const ref = useRef<HTMLDivElement>(null);
  const queue = useRef<LogMessage[]>([]);
  const v = useVirtualizer({
    count,
    getScrollElement: () => ref.current,
    estimateSize: () => 24,
    overscan: 10,
  });
  handle.current = {
    scroller: () => ref.current!,
    push: (lines) => queue.current.push(...lines),
  };
  // Every frame: what is due goes in at once.
  const pump = useRef(false);
  if (!pump.current) {
    pump.current = true;
    const tick = () => {
      if (queue.current.length) {
        rows.push(...queue.current);
        queue.current = [];
        flushSync(() => setCount(rows.length));
      }
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  }
  return (
    <div ref={ref} className="vl-body" style={{ height: 800, overflow: 'auto' }}>
      <div style={{ height: v.getTotalSize(), position: 'relative' }}>
        {v.getVirtualItems().map((it) => {
          const m = rows[it.index];
          return (
            <div
              key={it.key}
              style={{
                position: 'absolute',
                top: 0,
                height: 24,
                width: '100%',
                display: 'flex',
                transform: `translateY(${it.start}px)`,
              }}
            >
              <span style={{ flex: 3 }}>{m.message}</span>
              <span style={{ flex: 1 }}>{new Date(m.time * 1000).toLocaleString('en')}</span>
              <span style={{ flex: 1 }}>{m.eventName}</span>
              <span style={{ flex: 1 }}>{m.type}</span>
              <span style={{ flex: 1 }}>{m.level}</span>
              <span style={{ flex: 1 }}>{m.serviceDisplayName}</span>
            </div>
          );
        })}
      </div>
    </div>
  );
}
