// A short description shown on hover and keyboard focus of its one child (SPEC §9: at most
// 400 px wide, 250 ms fade-in; both come from theme variables).

import { cloneElement, type ReactElement, useId } from 'react';

export interface TooltipProps {
  text: string | null | undefined;
  children: ReactElement<{ 'aria-describedby'?: string }>;
}

export function Tooltip({ text, children }: TooltipProps) {
  const id = useId();
  if (!text) return children;
  return (
    <span className="ui-tip-anchor">
      {cloneElement(children, { 'aria-describedby': id })}
      <span role="tooltip" id={id} className="ui-tip">
        {text}
      </span>
    </span>
  );
}
