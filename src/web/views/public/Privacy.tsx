// /privacy (SPEC §2 landing links, §9 "requested policies"): what Palisade keeps, why, who sees
// it and for how long.

import { Link } from 'react-router';
import { REFRESH_TOKEN_SECONDS } from '../../../domain/constants.ts';
import { useApp } from '../../app/deps.tsx';
import { PublicPage } from './PublicPage.tsx';

const SESSION_DAYS = REFRESH_TOKEN_SECONDS / 86400;

export function Privacy() {
  const { config } = useApp();
  return (
    <PublicPage mainClassName="public-text">
      <h1>Privacy Policy</h1>
      <p>
        Palisade is a console for running game servers. To do that it keeps what your servers report and what
        you and your team do with them. This page says what that is, why it is kept, who can see it and when
        it is deleted.
      </p>

      <h2>What Palisade stores</h2>
      <h3>Your account</h3>
      <p>
        Your email address, your user name, a one-way hash of your password (never the password itself), the
        sessions you are signed in with, and which version of these policies you accepted and when.
      </p>
      <h3>Your servers</h3>
      <p>
        Each server's name, settings, colour and languages, its access key, and, for servers reached over
        RCON, the RCON address and a password sealed with a key only the service holds. The groups you make,
        who is in them and with which permissions.
      </p>
      <h3>Your servers' logs</h3>
      <p>
        Every event your servers report: players joining and leaving, deaths, tames, tribe changes, uploads,
        admin commands and more, with their time, and the place in the world where the game gives one.
      </p>
      <h3>Chat</h3>
      <p>
        Chat messages from the game, from the console, from scripts, and from a chat community linked to a
        group, with their English translation and content ratings (how likely a message is hateful,
        threatening or gives away personal details).
      </p>
      <h3>Player data</h3>
      <p>
        For each player who joins your servers: their names and name history, their platform identifiers,
        their sessions with connect and disconnect times, the country and whether they seem to use a VPN
        (looked up from their address; the address itself is not shown), their survivors, tribes and dinos,
        and the bans and notes your admins write about them.
      </p>
      <h3>Scripts, buckets and the activity trail</h3>
      <p>
        The scripts you write and their revisions, the values your scripts keep in buckets, and a trail of
        every change made through the console or the API: who made it, when, and on what.
      </p>
      <h3>Your plan</h3>
      <p>
        Your plan size, billing period, and the dates your trial and subscription start and end. Palisade
        never sees or stores your card number; payments are handled by the payment processor.
      </p>
      <h3>In your browser</h3>
      <p>
        Your sign-in tokens, a device id, your preferences (theme, columns, filters and the like) and, when
        you arrived through a partner's link, that partner's id. They stay in your browser's storage until you
        sign out or clear it.
      </p>

      <h2>Why</h2>
      <p>
        Only to run the console for you: to show your servers' history, let you moderate and automate them,
        and keep your team's changes accountable. Palisade does not sell this data, does not use it for
        advertising, and does not share it beyond what this page lists.
      </p>

      <h2>Who can see it</h2>
      <p>
        You, and the people you share a server, group, bucket or script with, each with the permissions you
        gave them. A player's data is seen by the admins of the servers they played on. Scripts you publish to
        the Workshop are public.
      </p>

      <h2>How long it is kept</h2>
      <ul>
        <li>Logs, chat and player sessions are kept for the retention period of your plan, then deleted.</li>
        <li>
          Deleting a server deletes at once its logs, chat, sessions, bans, survivors, tribes and dinos.
        </li>
        <li>
          A sign-in session ends after {SESSION_DAYS} days without use; unfinished sign-ins are deleted within
          minutes.
        </li>
        <li>The activity trail is kept as long as the server or group it is about.</li>
        <li>Closing your account deletes your account and everything you own.</li>
      </ul>

      <h2>Players</h2>
      <p>
        A player can opt out: from then on every console shows them as Anonymous, without their names,
        identifiers or location. Players, and anyone else, can ask what is kept about them, or to have it
        corrected or deleted, through <a href={config.supportUrl}>Contact Support</a>.
      </p>

      <h2>Changes</h2>
      <p>
        When this policy changes, you are asked to accept the new version the next time you sign in. See also
        the <Link to="/terms">Terms of Service</Link>.
      </p>
    </PublicPage>
  );
}
