// The frame of every public page: a skip link, the header, the page's <main>, and the footer with
// every link of the landing page (SPEC §2). Focus follows navigation: after moving to another page
// it lands on that page's heading, after an in-page link (#pricing) on that section's heading.

import { type ReactNode, useEffect } from 'react';
import { useLocation } from 'react-router';
import { PublicFooter } from './PublicFooter.tsx';
import { PublicHeader } from './PublicHeader.tsx';
import './public.css';

interface Props {
  children: ReactNode;
  /** `public-card` for the short pages (welcome), `public-text` for the long reading ones. */
  mainClassName?: string;
}

export const MAIN_ID = 'main';

/** Focuses the element without scrolling past it: headings are not focusable by Tab, only by us. */
function focusHeading(el: HTMLElement) {
  if (!el.hasAttribute('tabindex')) el.setAttribute('tabindex', '-1');
  el.focus();
}

/**
 * The element a location points at: the first heading of the #hash target (or the target), else
 * the page's main heading. Null on the first page of a visit without a hash: focus starts at the
 * top of the page, where the skip link is.
 */
function targetOf(hash: string, navigated: boolean): HTMLElement | null {
  const id = decodeURIComponent(hash.slice(1));
  const section = id ? document.getElementById(id) : null;
  if (section) return section.querySelector<HTMLElement>('h1, h2, h3') ?? section;
  if (!navigated) return null;
  return document.querySelector<HTMLElement>(`#${MAIN_ID} h1`);
}

export function usePageFocus(): void {
  // Every navigation has a key of its own; the first page of a visit has 'default'.
  const { hash, key } = useLocation();
  useEffect(() => {
    const target = targetOf(hash, key !== 'default');
    if (target) focusHeading(target);
  }, [hash, key]);
}

export function PublicPage({ children, mainClassName }: Props) {
  usePageFocus();
  return (
    <div className="public">
      <a
        className="public-skip"
        href={`#${MAIN_ID}`}
        onClick={(e) => {
          // The router owns the address: move focus to the content without changing it.
          e.preventDefault();
          document.getElementById(MAIN_ID)?.focus();
        }}
      >
        Skip to content
      </a>
      <PublicHeader />
      <main id={MAIN_ID} tabIndex={-1} className={mainClassName}>
        {children}
      </main>
      <PublicFooter />
    </div>
  );
}
