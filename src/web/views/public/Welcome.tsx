// /welcome (SPEC §2): where the provider sends people after buying a trial when the console
// cannot match the purchase to the signed-in account. `?reason=` picks the message.

import { useSearchParams } from 'react-router';
import { PublicPage } from './PublicPage.tsx';
import { SignInButton } from './SignInButton.tsx';

export const WELCOME_MESSAGES = {
  notSignedIn: {
    title: 'Sign in to start',
    text: 'You are not signed in. Sign in with the account that has the email address you used for your trial.',
  },
  wrongAccount: {
    title: 'This is a different account',
    text: 'You are signed in with an account that does not have the email address of your trial. Sign in with the account that does.',
  },
  typo: {
    title: 'Check the email address',
    text: 'No account matches the email address of your trial. It may contain a typo: check it, then sign in with the matching account.',
  },
  createAccount: {
    title: 'Create your account',
    text: 'Create an account with the same email address you used for your trial, then sign in with it.',
  },
} as const;

export type WelcomeReason = keyof typeof WELCOME_MESSAGES;

const isReason = (v: string | null): v is WelcomeReason => v !== null && Object.hasOwn(WELCOME_MESSAGES, v);

export function Welcome() {
  const [params] = useSearchParams();
  const asked = params.get('reason');
  const reason: WelcomeReason = isReason(asked) ? asked : 'notSignedIn';
  const message = WELCOME_MESSAGES[reason];
  return (
    <PublicPage mainClassName="public-card">
      <h1>{message.title}</h1>
      <p>{message.text}</p>
      <SignInButton switchAccount={reason === 'wrongAccount'} />
    </PublicPage>
  );
}
