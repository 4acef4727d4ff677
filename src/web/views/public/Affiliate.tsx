// /a/{affiliateId} (SPEC §2): remembers who sent the visitor, then shows the landing page.

import { useEffect } from 'react';
import { useNavigate, useParams } from 'react-router';
import { setPref } from '../../store/prefs.ts';

/** Affiliate ids are short codes; anything else in the link is ignored rather than stored. */
const AFFILIATE_ID = /^[A-Za-z0-9_-]{1,64}$/;

export function Affiliate() {
  const { affiliateId } = useParams();
  const navigate = useNavigate();
  useEffect(() => {
    if (affiliateId && AFFILIATE_ID.test(affiliateId)) setPref('affiliateId', affiliateId);
    navigate('/', { replace: true });
  }, [affiliateId, navigate]);
  return null;
}
