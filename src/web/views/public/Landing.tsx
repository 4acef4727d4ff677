// The landing view of / and /features (SPEC §1, §2). Prices come from the server's plan
// configuration (Pricing.tsx); the trial sign-up is TrialForm.tsx.

import { Pricing } from './Pricing.tsx';
import { PublicHeader } from './PublicHeader.tsx';
import { TrialForm } from './TrialForm.tsx';
import './public.css';

const FEATURES: { title: string; text: string }[] = [
  {
    title: 'Two lines of setup',
    text: 'Install the game mod, add two lines to your server config, and your server reports in.',
  },
  {
    title: 'Custom items',
    text: 'Give items with exact quality, stats and blueprints, or loot of your own.',
  },
  {
    title: 'More events',
    text: 'Deaths, tames, tribe changes, uploads, clock tampering and more, on top of what the game logs.',
  },
  {
    title: 'Chat, translated and rated',
    text: 'Every message translated to English and scored for hate, danger, personal details and more.',
  },
  {
    title: 'Smart remote commands',
    text: 'Send console commands to one server, a group of servers or all of them at once.',
  },
  { title: 'Dino locator', text: 'Find any dino by name or number, wherever it is on the map.' },
  { title: 'Dino revival', text: 'Bring a dead dino back in a cryopod, when the server kept its backup.' },
  {
    title: 'Scripting',
    text: 'Simple scripts or JavaScript, run on events, on a schedule, by command or by webhook.',
  },
  { title: 'Any host', text: 'Works wherever your server runs: rented, dedicated or at home.' },
];

export function Landing() {
  return (
    <div className="public">
      <PublicHeader />
      <main>
        <section className="public-hero">
          <h1>Run your ARK servers from the keyboard</h1>
          <p>
            Logs, chat, players, bans, dinos and scripts for every server you own, in one console where every
            action is a keystroke away.
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
        </section>
      </main>
    </div>
  );
}
