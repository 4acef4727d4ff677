// /terms (SPEC §2 landing links, §9 "requested policies"): the terms of using Palisade, with the
// trial, renewal, proration and refund rules of SPEC §1 and §9.

import { Link } from 'react-router';
import { REFUND_DAYS, TRIAL_DAYS } from '../../../domain/constants.ts';
import { useApp } from '../../app/deps.tsx';
import { useLandingSection } from './PublicHeader.tsx';
import { PublicPage } from './PublicPage.tsx';

export function Terms() {
  const { config } = useApp();
  return (
    <PublicPage mainClassName="public-text">
      <h1>Terms of Service</h1>
      <p>
        These terms apply when you use Palisade, the console for running game servers, its API and its
        Workshop. By signing in you accept them.
      </p>

      <h2>Your account</h2>
      <p>
        An account is for one person. Keep your password to yourself: what is done with your sign-in, or with
        a server's access key, is done by you. The people you share servers and groups with act with the
        permissions you give them.
      </p>

      <h2>Plans and billing</h2>
      <ul>
        <li>
          Plans are priced in US dollars by the number of servers, monthly or yearly (see{' '}
          <Link to={useLandingSection('pricing')}>Pricing</Link>).
        </li>
        <li>
          Every new subscription starts with a {TRIAL_DAYS} day free trial. Cancel before it ends and nothing
          is charged; otherwise the subscription starts when the trial ends.
        </li>
        <li>Subscriptions renew automatically at the end of each month or year until you cancel.</li>
        <li>
          Changing your plan takes effect at once; the price is prorated for the rest of the current period.
        </li>
        <li>
          You can ask for a refund within {REFUND_DAYS} days of a payment. Cancelling stops the next renewal;
          the plan runs until the end of the period already paid.
        </li>
        <li>
          Your plan covers a number of servers. With more servers than your plan allows, none of them connect
          until you change the plan or remove servers.
        </li>
      </ul>

      <h2>Using Palisade</h2>
      <ul>
        <li>Connect only servers you run, or are allowed to administer.</li>
        <li>
          Treat your players' data as the <Link to="/privacy">Privacy Policy</Link> describes, and only to run
          your servers.
        </li>
        <li>
          Do not use the API or scripts to attack, overload or get around the limits of Palisade or anyone
          else; calls are rate limited.
        </li>
      </ul>

      <h2>The Workshop</h2>
      <p>
        Scripts you publish to the Workshop can be attached or copied by anyone under the MIT-0 licence.
        Publish only what you have the right to share.
      </p>

      <h2>Availability and changes</h2>
      <p>
        Palisade is run with care but without a guarantee that it never fails; keep your own backups of
        anything you cannot lose. When these terms change, you are asked to accept the new version the next
        time you sign in.
      </p>

      <h2>Ending</h2>
      <p>
        You can cancel your subscription and close your account at any time. An account that breaks these
        terms may be suspended.
      </p>

      <h2>Questions</h2>
      <p>
        Ask through <a href={config.supportUrl}>Contact Support</a>.
      </p>
    </PublicPage>
  );
}
