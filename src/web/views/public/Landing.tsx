// The landing view of / and /features (SPEC §1, §2): hero, one section per landing feature,
// pricing (Pricing.tsx, from the server's plan configuration), the trial sign-up (TrialForm.tsx)
// and the family.

import { Link } from 'react-router';
import { useApp } from '../../app/deps.tsx';
import { Pricing } from './Pricing.tsx';
import { useLandingSection } from './PublicHeader.tsx';
import { PublicPage } from './PublicPage.tsx';
import { TrialForm } from './TrialForm.tsx';

/** SPEC §1 "Landing features", in its order. */
export const FEATURES: { title: string; text: string }[] = [
  {
    title: 'Two lines of setup',
    text: 'Install the game mod, add two lines to your server config, and your server reports in. Servers without the mod can still be run over RCON.',
  },
  {
    title: 'Custom items',
    text: 'Give items with exact quality, stats and blueprints, or loot of your own, to one survivor or several at once.',
  },
  {
    title: 'More events',
    text: 'Deaths, tames, tribe changes, uploads, clock tampering and more, on top of what the game logs.',
  },
  {
    title: 'Chat, translated and rated',
    text: 'Every message translated to English and scored for hate, danger, personal details and more, so moderators see trouble first.',
  },
  {
    title: 'Smart remote commands',
    text: 'Send console commands to one server, a group of servers or all of them at once, and see what each one answered.',
  },
  {
    title: 'Dino locator',
    text: 'Find any dino by name or number, wherever it is on the map, and copy its position as a command.',
  },
  {
    title: 'Dino revival',
    text: 'Bring a dead dino back in a cryopod, when the server kept its backup, into the inventory of the survivor you choose.',
  },
  {
    title: 'Scripting',
    text: 'Simple scripts or JavaScript, run on events, on a schedule, by command or by webhook, and shared in the Workshop.',
  },
  {
    title: 'Any host',
    text: 'Works wherever your server runs: rented, dedicated or at home, on any platform the game supports.',
  },
];

export function Landing() {
  const { config } = useApp();
  return (
    <PublicPage>
      <section className="public-hero" aria-labelledby="hero-title">
        <h1 id="hero-title">Run your ARK servers from the keyboard</h1>
        <p>
          Logs, chat, players, bans, dinos and scripts for every server you own, in one console where every
          action is a keystroke away.
        </p>
        <p className="public-actions">
          <Link to={useLandingSection('trial')} className="public-button">
            Start your free trial
          </Link>
          <Link to={useLandingSection('pricing')}>See pricing</Link>
        </p>
      </section>

      <section id="features" aria-labelledby="features-title" className="public-section">
        <h2 id="features-title">Features</h2>
        <ul className="public-features">
          {FEATURES.map((f) => (
            <li key={f.title}>
              <h3>{f.title}</h3>
              <p>{f.text}</p>
            </li>
          ))}
        </ul>
      </section>

      <Pricing />

      <TrialForm />

      <section aria-labelledby="family-title" className="public-section">
        <h2 id="family-title">Part of the family</h2>
        <p>
          Palisade sits alongside the config-planning tool from the same team: plan your server's settings
          there, and run the live server here.
        </p>
        <p>
          <a href={config.plannerUrl}>Open the config-planning tool</a>
        </p>
      </section>
    </PublicPage>
  );
}
