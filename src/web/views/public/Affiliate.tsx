// /a/{affiliateId} (SPEC §2): remembers who sent the visitor, then shows the landing page.

import { useEffect } from 'react';
import { useNavigate, useParams } from 'react-router';
import { AFFILIATE_ID } from '../../../domain/billing.ts';
import { setPref } from '../../store/prefs.ts';

export function Affiliate() {
  const { affiliateId } = useParams();
  const navigate = useNavigate();
  useEffect(() => {
    if (affiliateId && AFFILIATE_ID.test(affiliateId)) setPref('affiliateId', affiliateId);
    navigate('/', { replace: true });
  }, [affiliateId, navigate]);
  return null;
}
